import type { Config } from '../config/config.js';
import type { McpSource } from '../mcp/mcp-source.js';
import type { ToolRegistry } from '../tools/registry.js';
import { builtinTools, cliAgentConfig, cliSandbox } from './agent-config.js';
import { addMcpTools } from './mcp-tools.js';
import { checkPermissionFlags } from './permission-flags.js';
import { modulePolicy } from './policy-module.js';
import type { Output } from './render-human.js';
import type { RunCliOptions } from './run-options.js';
import { storeLocation } from './store-flags.js';

/** The configuration and tools of the agent `run` builds, without its client and session. */
export interface CliAgentParts {
  readonly config: Config;
  readonly registry: ToolRegistry;
}

/**
 * The configuration and tools of the agent `run` (and `resume`, and `replay` without `--agent`)
 * builds from its options: the `--policy` module's rules, the budget, the built-in tool set in
 * its sandbox and the MCP servers' tools (their sources pushed on `sources`, for the caller to
 * stop). The store and the journal may sit inside the workspace: the workspace tools keep out of them.
 */
export async function cliAgentParts(options: RunCliOptions, err: Output, sources: McpSource[]): Promise<CliAgentParts> {
  const fromModule =
    options.policyFile === undefined ? undefined : await modulePolicy(options.policyFile, options.permissions);
  const config = cliAgentConfig(
    {
      ...options,
      permissions: fromModule?.permissions ?? options.permissions,
      guardrails: fromModule?.guardrails,
      kept: [storeLocation(options.store), options.journal, options.resume],
    },
    err,
  );
  const registry = builtinTools(
    options.tools,
    config,
    cliSandbox(options.sandbox, options.tools, config, err, options.allowNet),
  );
  sources.push(...(await addMcpTools(options.mcp, registry)));
  checkPermissionFlags(
    config.permissions,
    registry,
    options.policyFile === undefined ? undefined : { file: options.policyFile, flags: options.permissions },
  );
  return { config, registry };
}
