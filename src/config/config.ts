import { resolve } from 'node:path';
import type { PolicyFunction } from '../core/approval-types.js';
import { DEFAULT_MAX_ATTACHMENT_BYTES } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import { BUDGET_KEYS, Budget, type BudgetOptions } from './budget.js';
import { type ContextOptions, type ContextSettings, checkContextOptions } from './context-options.js';
import { checkGuardrails, type GuardrailOptions, type GuardrailSettings } from './guardrail-options.js';
import { refuseMisspelledKeys } from './option-keys.js';
import { checkPermissions, type PermissionPolicy, type ScopedPermissions } from './permission-policy.js';

/** Default `maxTurns` when neither the config nor the budget names one. */
export const DEFAULT_MAX_TURNS = 10;
/** Default cap on one tool observation, in characters. */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 100_000;

/** Default cap on concurrency-safe calls of one batch running at once. */
export const DEFAULT_MAX_PARALLEL_TOOLS = 8;
/** Default number of invalid calls to one tool, in a row within a run, that ends the run. */
export const DEFAULT_MAX_INVALID_TOOL_CALLS = 3;
/** Default bound on how deeply agents started by `agentTool` nest (a top-level agent is at depth 0). */
export const DEFAULT_MAX_AGENT_DEPTH = 3;

const CONFIG_KEYS = [
  'cwd',
  'budget',
  'toolTimeoutMs',
  'systemPrompt',
  'maxToolOutputChars',
  'maxAttachmentBytes',
  'permissions',
  'maxParallelTools',
  'maxInvalidToolCalls',
  'context',
  'maxAgentDepth',
  'protectedPaths',
  'guardrails',
  ...BUDGET_KEYS,
] as const;

/**
 * Options of {@link Config}. Each budget option may also be given here, as a shorthand that
 * fills the same key of `budget` when `budget` does not name it (`budget` wins).
 */
export interface ConfigOptions extends BudgetOptions {
  /** The workspace: file tools stay inside it. Defaults to `process.cwd()`. */
  readonly cwd?: string;
  /** Shorthand for `budget.maxTurns`; fills it when the budget has none. Default 10. */
  readonly maxTurns?: number;
  /** Run limits, as options or a {@link Budget}. */
  readonly budget?: Budget | BudgetOptions;
  /** Per-call tool time limit in milliseconds; none by default. */
  readonly toolTimeoutMs?: number;
  /** A system message placed first in the model's context. */
  readonly systemPrompt?: string;
  /** Cap on one tool observation; longer output is cut with a visible marker. Default 100,000. */
  readonly maxToolOutputChars?: number;
  /**
   * Cap on one image or file part's bytes, in the task and in tool results (SPEC §15): a larger
   * one is refused before any request is sent. Default 5 MiB.
   */
  readonly maxAttachmentBytes?: number;
  /**
   * Tool name or kind → `allow | ask | deny` or a function of the call (a name beats a kind, a
   * kind beats the fallback key `'*'`; anything not covered is `allow`), or `{ kinds, tools }` to
   * keep them apart, or one function for every call. `ask` waits for `agent.approve()` /
   * `agent.deny()`; see docs/approval.md.
   */
  readonly permissions?: PermissionPolicy | ScopedPermissions | PolicyFunction;
  /** At most this many concurrency-safe calls of one batch run at once; results still come in call order. Default 8. */
  readonly maxParallelTools?: number;
  /**
   * A run ends with `invalid_tool_calls` when the model sends this many invalid calls (unknown
   * tool, arguments that fail validation) to one tool without a call to it succeeding. Default 3.
   */
  readonly maxInvalidToolCalls?: number;
  /**
   * Context management: before a request whose context would exceed `maxTokens`, older turns
   * are compacted (tool outputs elided, or turns summarised) by a journaled step. None by
   * default: every request sends the whole history. See docs/context.md.
   */
  readonly context?: ContextOptions;
  /**
   * How deeply the agents this agent starts (`agentTool`) may nest: its children run at its
   * depth + 1, and a call that would start one deeper than this answers `Error: agent_depth: …`.
   * A top-level agent is at depth 0. Default 3.
   */
  readonly maxAgentDepth?: number;
  /**
   * Files or folders inside the workspace that the workspace tools refuse to read or write
   * (relative to `cwd` or absolute): a session store kept there, say. `.agent-harness/` at the
   * top of `cwd` is always refused. None by default.
   */
  readonly protectedPaths?: readonly string[];
  /**
   * Checks on the user's message (`input`), the final answer (`output`) and each tool result
   * (`toolResult`): each `{ name, check(value, ctx) }` answers `'pass'`, `{ tripwire }` (the run
   * ends with `guardrail`) or `{ replace }` (output and tool results). See docs/guardrails.md.
   */
  readonly guardrails?: GuardrailOptions;
}

/** Immutable configuration shared by the session, the registry, the tools and the agent. */
export class Config {
  /** Absolute path of the workspace. */
  readonly cwd: string;
  /** The run limits; `budget.maxTurns` is always set. */
  readonly budget: Budget;
  /** Per-call tool time limit in milliseconds, if any. */
  readonly toolTimeoutMs: number | undefined;
  /** The system message placed first in the context, if any. */
  readonly systemPrompt: string | undefined;
  /** Cap on one tool observation, in characters. */
  readonly maxToolOutputChars: number;
  /** Cap on one image or file part, in bytes. */
  readonly maxAttachmentBytes: number;
  /** The tool policy (frozen); empty means every call is allowed. */
  readonly permissions: PermissionPolicy;
  /** At most this many concurrency-safe calls of one batch run at once. */
  readonly maxParallelTools: number;
  /** Invalid calls to one tool, without a success between them, that end a run. */
  readonly maxInvalidToolCalls: number;
  /** Context management settings, every default filled; undefined when the context is never compacted. */
  readonly context: ContextSettings | undefined;
  /** The deepest nesting of agents started by `agentTool` (see {@link ConfigOptions.maxAgentDepth}). */
  readonly maxAgentDepth: number;
  /** Absolute paths the workspace tools refuse (see {@link ConfigOptions.protectedPaths}). */
  readonly protectedPaths: readonly string[];
  /** The guardrails of each stage (empty lists when none were given). */
  readonly guardrails: GuardrailSettings;

  constructor(options: ConfigOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new HarnessError('invalid_config', 'Config takes an options object');
    }
    refuseMisspelledKeys(options, CONFIG_KEYS, 'Config');
    if (options.cwd !== undefined && (typeof options.cwd !== 'string' || options.cwd === '')) {
      throw new HarnessError('invalid_config', `cwd must be a non-empty path, got ${String(options.cwd)}`);
    }
    this.cwd = resolve(options.cwd ?? process.cwd());
    this.budget = budgetOf(options);
    this.toolTimeoutMs = positiveOrUndefined(options.toolTimeoutMs, 'toolTimeoutMs');
    if (options.systemPrompt !== undefined && typeof options.systemPrompt !== 'string') {
      throw new HarnessError('invalid_config', 'systemPrompt must be a string');
    }
    this.systemPrompt = options.systemPrompt;
    this.maxToolOutputChars =
      positiveOrUndefined(options.maxToolOutputChars, 'maxToolOutputChars') ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
    this.maxAttachmentBytes =
      positiveInteger(options.maxAttachmentBytes, 'maxAttachmentBytes') ?? DEFAULT_MAX_ATTACHMENT_BYTES;
    this.permissions = checkPermissions(options.permissions);
    this.maxParallelTools = positiveInteger(options.maxParallelTools, 'maxParallelTools') ?? DEFAULT_MAX_PARALLEL_TOOLS;
    this.maxInvalidToolCalls =
      positiveInteger(options.maxInvalidToolCalls, 'maxInvalidToolCalls') ?? DEFAULT_MAX_INVALID_TOOL_CALLS;
    this.context = checkContextOptions(options.context);
    this.maxAgentDepth = positiveInteger(options.maxAgentDepth, 'maxAgentDepth') ?? DEFAULT_MAX_AGENT_DEPTH;
    this.protectedPaths = pathList(options.protectedPaths, this.cwd);
    this.guardrails = checkGuardrails(options.guardrails);
  }

  /**
   * The same configuration with another system prompt (an agent's own instructions); every
   * other option is kept.
   */
  withSystemPrompt(systemPrompt: string | undefined): Config {
    return this.rebuilt(systemPrompt, this.permissions);
  }

  /** The same configuration with another tool policy (a sub-agent's, narrowed by its parent's). */
  withPermissions(permissions: PermissionPolicy): Config {
    return this.rebuilt(this.systemPrompt, permissions);
  }

  /** The same configuration with other guardrails (the Restate worker's, each check a durable step). */
  withGuardrails(guardrails: GuardrailOptions): Config {
    return this.rebuilt(this.systemPrompt, this.permissions, guardrails);
  }

  private rebuilt(
    systemPrompt: string | undefined,
    permissions: PermissionPolicy,
    guardrails: GuardrailOptions = this.guardrails,
  ): Config {
    return new Config({
      cwd: this.cwd,
      budget: this.budget,
      ...(this.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: this.toolTimeoutMs }),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      maxToolOutputChars: this.maxToolOutputChars,
      maxAttachmentBytes: this.maxAttachmentBytes,
      permissions,
      maxParallelTools: this.maxParallelTools,
      maxInvalidToolCalls: this.maxInvalidToolCalls,
      maxAgentDepth: this.maxAgentDepth,
      protectedPaths: this.protectedPaths,
      guardrails,
      ...(this.context === undefined ? {} : { context: this.context }),
    });
  }

  /** The turn limit (`budget.maxTurns`). */
  get maxTurns(): number {
    return this.budget.maxTurns ?? DEFAULT_MAX_TURNS;
  }
}

/** The budget, with the top-level shorthands filling what it does not name, and `maxTurns` always set. */
function budgetOf(options: ConfigOptions): Budget {
  const given = options.budget;
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    throw new HarnessError('invalid_config', `budget must be a Budget or an options object, got ${String(given)}`);
  }
  const shorthand: { -readonly [K in keyof BudgetOptions]: BudgetOptions[K] } = {};
  for (const key of BUDGET_KEYS) {
    // A Budget always has its rates, so there a shorthand fills only the limits it lacks.
    if (options[key] !== undefined && given?.[key] === undefined) Object.assign(shorthand, { [key]: options[key] });
  }
  const merged = given instanceof Budget ? given.with(shorthand) : new Budget({ ...given, ...shorthand });
  return merged.maxTurns === undefined ? merged.with({ maxTurns: DEFAULT_MAX_TURNS }) : merged;
}

function positiveOrUndefined(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new HarnessError('invalid_config', `${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new HarnessError('invalid_config', `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** `paths` checked (non-empty strings without NUL) and made absolute against `cwd`. */
function pathList(paths: readonly string[] | undefined, cwd: string): readonly string[] {
  if (paths === undefined) return [];
  if (!Array.isArray(paths)) throw new HarnessError('invalid_config', 'protectedPaths must be an array of paths');
  return paths.map((path: unknown) => {
    if (typeof path !== 'string' || path === '' || path.includes('\0')) {
      throw new HarnessError('invalid_config', `protectedPaths: each must be a non-empty path, got ${String(path)}`);
    }
    return resolve(cwd, path);
  });
}
