import { resolve } from 'node:path';
import { MODEL_PRICES, PriceTable } from '../adapters/prices.js';
import { Config } from '../config/config.js';
import type { ContextOptions } from '../config/context-options.js';
import type { GuardrailOptions } from '../config/guardrail-options.js';
import type { PermissionPolicy } from '../config/permission-policy.js';
import { printableLine } from '../core/printable.js';
import { ReadFileTool } from '../tools/read-file.js';
import { ToolRegistry } from '../tools/registry.js';
import { type Sandbox, type SandboxMode, sandboxFor, workspaceTools } from '../tools/workspace/index.js';
import type { Output } from './render-human.js';
import type { ToolSet } from './run-options.js';

/** What `run` and `worker` take from their flags to configure the agent. */
export interface CliAgentSettings {
  readonly model: string;
  /** `--fallback` models: their usage is priced at their own rates. */
  readonly fallback?: readonly string[];
  /** The workspace, absolute. */
  readonly cwd: string;
  /** Files and folders the workspace tools keep out of (the store, the journal). */
  readonly kept: readonly (string | undefined)[];
  readonly permissions: PermissionPolicy;
  /** From a `--policy` module's `guardrails` export. */
  readonly guardrails?: GuardrailOptions | undefined;
  readonly maxTurns: number;
  readonly maxCost: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly context?: ContextOptions | undefined;
  /** From `--max-attachment-bytes`: the cap on one image or file part (the config's default when absent). */
  readonly maxAttachmentBytes?: number | undefined;
}

/**
 * The agent's configuration from the CLI's flags: the budget priced at the model's list rates
 * (an unknown model warns once on `err`), and the workspace tools kept out of `kept`.
 */
export function cliAgentConfig(settings: CliAgentSettings, err: Output): Config {
  const prices = new PriceTable(MODEL_PRICES, (message) => err.write(`warning: ${printableLine(message)}\n`));
  const kept = settings.kept.filter((path) => path !== undefined);
  return new Config({
    cwd: settings.cwd,
    protectedPaths: kept.map((path) => resolve(path)),
    permissions: settings.permissions,
    budget: {
      maxTurns: settings.maxTurns,
      ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
      ...(settings.timeoutMs !== undefined ? { maxWallClockMs: settings.timeoutMs } : {}),
      ...prices.budgetRates(settings.model),
      ...(settings.fallback !== undefined && settings.fallback.length > 0
        ? { modelRates: Object.fromEntries(settings.fallback.map((model) => [model, prices.budgetRates(model)])) }
        : {}),
    },
    ...(settings.context !== undefined ? { context: settings.context } : {}),
    ...(settings.maxAttachmentBytes !== undefined ? { maxAttachmentBytes: settings.maxAttachmentBytes } : {}),
    ...(settings.guardrails !== undefined ? { guardrails: settings.guardrails } : {}),
  });
}

/**
 * The sandbox of `--sandbox MODE` (and `--allow-net` hosts) for a `--tools` set: made (and
 * bubblewrap probed) only when the set runs commands or `bwrap` was asked for by name, which
 * throws `missing_dependency` without one. When `auto` finds none, `err` gets a warning: the
 * commands run unsandboxed (and reach every host).
 */
export function cliSandbox(
  mode: SandboxMode,
  set: ToolSet,
  config: Config,
  err: Output,
  allowedHosts: readonly string[] = [],
): Sandbox | undefined {
  if (set !== 'workspace' && mode !== 'bwrap') return undefined;
  const sandbox = sandboxFor(config, { mode, allowedHosts });
  if (sandbox.fallbackReason !== undefined) {
    const hosts =
      allowedHosts.length > 0 && allowedHosts[0] !== '*' ? ', and --allow-net does not limit their network' : '';
    err.write(`warning: shell commands run without a sandbox${hosts}: ${printableLine(sandbox.fallbackReason)}\n`);
  }
  return sandbox;
}

/** The built-in tools of a `--tools` set, confined to the config's workspace; `shell` runs in `sandbox` (default none). */
export function builtinTools(set: ToolSet, config: Config, sandbox?: Sandbox): ToolRegistry {
  return new ToolRegistry(config).register(
    ...(set === 'workspace' ? workspaceTools(config, sandbox ? { sandbox } : {}) : [new ReadFileTool(config)]),
  );
}
