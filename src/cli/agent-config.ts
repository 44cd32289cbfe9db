import { resolve } from 'node:path';
import { MODEL_PRICES, PriceTable } from '../adapters/prices.js';
import { Config } from '../config/config.js';
import type { ContextOptions } from '../config/context-options.js';
import type { PermissionPolicy } from '../config/permission-policy.js';
import { printableLine } from '../core/printable.js';
import { ReadFileTool } from '../tools/read-file.js';
import { ToolRegistry } from '../tools/registry.js';
import { workspaceTools } from '../tools/workspace/index.js';
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
  readonly maxTurns: number;
  readonly maxCost: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly context?: ContextOptions | undefined;
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
  });
}

/** The built-in tools of a `--tools` set, confined to the config's workspace. */
export function builtinTools(set: ToolSet, config: Config): ToolRegistry {
  return new ToolRegistry(config).register(
    ...(set === 'workspace' ? workspaceTools(config) : [new ReadFileTool(config)]),
  );
}
