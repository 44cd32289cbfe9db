import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/config.js';
import type { ModelClient } from '../../core/model-client.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { builtinTools, cliAgentConfig, cliSandbox } from '../agent-config.js';
import { allowNetHosts } from '../allow-net-flag.js';
import { cliClient } from '../cli-client.js';
import { DEMO_FILES, demoClient } from '../demo-script.js';
import type { Env } from '../make-client.js';
import { positiveDecimal, positiveInteger } from '../numeric-flags.js';
import { parseDuration } from '../parse-duration.js';
import { checkPermissionFlags, permissionPolicy } from '../permission-flags.js';
import { modulePolicy } from '../policy-module.js';
import type { Output } from '../render-human.js';
import { policyFileArg, providerModel, sandboxMode, toolSet } from '../run-options.js';
import { storeLocation } from '../store-flags.js';

/** The values of the approval flags (`--allow`, `--deny`, `--yes`). */
type PermissionValues = Parameters<typeof permissionPolicy>[0];

/** The flags of `worker` that say what agent it serves. */
export interface WorkerAgentValues extends PermissionValues {
  readonly demo: boolean;
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly 'max-turns'?: string | undefined;
  readonly 'max-cost'?: string | undefined;
  readonly timeout?: string | undefined;
  readonly cwd?: string | undefined;
  readonly tools?: string | undefined;
  readonly sandbox?: string | undefined;
  readonly 'allow-net'?: readonly string[] | undefined;
  readonly policy?: string | undefined;
  readonly 'max-attachment-bytes'?: string | undefined;
}

/** What a worker builds every session's agent from. */
export interface WorkerAgent {
  readonly config: Config;
  readonly client: ModelClient;
  readonly registry: ToolRegistry;
}

/**
 * The agent `worker` serves, from its flags as `run` reads them: the provider (`openai`,
 * `anthropic`, or `ai-sdk:<package>/<model>`, loaded now) and model, the budget, the workspace
 * and its tools in their sandbox, the permissions (and a `--policy` module's). With `--demo`, the
 * demo's scripted model and files. `store` is kept out of the workspace tools' reach.
 */
export async function workerAgent(
  values: WorkerAgentValues,
  store: string,
  env: Env,
  err: Output,
): Promise<WorkerAgent> {
  const { provider, model } = providerModel(values);
  const cwd = values.demo && values.cwd === undefined ? demoWorkspace() : resolve(values.cwd ?? '.');
  const tools = toolSet(values.tools);
  const sandbox = sandboxMode(values.sandbox);
  const allowNet = allowNetHosts(values['allow-net']);
  const permissions = permissionPolicy(values);
  const policyFile = values.policy === undefined ? undefined : policyFileArg(values.policy);
  const fromModule = policyFile === undefined ? undefined : await modulePolicy(policyFile, permissions);
  const config = cliAgentConfig(
    {
      model,
      cwd,
      kept: [storeLocation(store)],
      permissions: fromModule?.permissions ?? permissions,
      guardrails: fromModule?.guardrails,
      maxTurns: positiveInteger(values['max-turns'], '--max-turns') ?? 10,
      maxCost: positiveDecimal(values['max-cost'], '--max-cost'),
      timeoutMs: values.timeout === undefined ? undefined : parseDuration(values.timeout, '--timeout'),
      maxAttachmentBytes: positiveInteger(values['max-attachment-bytes'], '--max-attachment-bytes'),
    },
    err,
  );
  const client = values.demo
    ? demoClient()
    : await cliClient({ provider, model, baseURL: values['base-url'], cwd }, env);
  const registry = builtinTools(tools, config, cliSandbox(sandbox, tools, config, err, allowNet));
  checkPermissionFlags(
    config.permissions,
    registry,
    policyFile === undefined ? undefined : { file: policyFile, flags: permissions },
  );
  return { config, client, registry };
}

/** A temporary folder holding the demo's files. */
function demoWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-demo-'));
  for (const [name, text] of Object.entries(DEMO_FILES)) writeFileSync(join(dir, name), text);
  return dir;
}
