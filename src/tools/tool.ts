import type { z } from 'zod';
import type { Config } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/messages.js';
import type { ToolKind } from '../core/tool-kind.js';
import type { ToolResult } from '../core/tool-result.js';
import { resultOfAnswer } from './tool-answer.js';
import type { ToolRunContext } from './tool-run-context.js';

/** What a tool's `execute` receives. */
export interface ToolInvocation<Params = Record<string, unknown>> {
  /** Arguments, already validated by the tool's schema. */
  readonly params: Params;
  /** The id of the model's call. */
  readonly callId: string;
  /** Aborted when the run is aborted, its time budget ends, or the call times out. */
  readonly signal: AbortSignal;
  /** The workspace directory. */
  readonly cwd: string;
  /** The agent run making the call (absent outside a run); sub-agent and handoff tools use it. */
  readonly run?: ToolRunContext;
}

/** The surface the registry needs from a tool, whichever way it was made. */
export interface ToolLike<S extends z.ZodType = z.ZodType> {
  /** Unique name the model calls it by (letters, digits, `_` and `-`, at most 64). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** What it does to the world. */
  readonly kind: ToolKind;
  /** Argument schema; also sent to the model as JSON Schema unless `parameters` is given. */
  readonly schema: S;
  /**
   * JSON Schema sent to the model as it is, instead of the one made from `schema`: for a tool
   * whose schema comes from elsewhere (an MCP server). `schema` still checks the arguments.
   */
  readonly parameters?: JsonObject;
  /** Where the tool comes from, for display (e.g. `mcp:files`); absent for the caller's own tools. */
  readonly source?: string;
  /** May run at the same time as other safe calls. Default: `kind === 'read'`. */
  readonly concurrencySafe?: boolean;
  /**
   * Running it twice has the same effect as running it once, so a call left in doubt by a crash
   * may run again on resume. Default: `kind === 'read'`.
   */
  readonly idempotent?: boolean;
  /** Per-call time limit overriding `Config.toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * True for a tool that runs a child agent (`agentTool`): each call gets a child session id
   * (`ToolRunContext.childSessionId`), journaled with the call's start.
   */
  readonly runsAgent?: boolean;
  /**
   * The sandbox its calls run in (`bwrap`, `none`, or a custom tool's own name for one), when the
   * tool runs commands; announced on the run's first event (`agent_start`'s `sandbox`).
   */
  readonly sandbox?: string;
  /** Runs the call. Throwing is allowed: the registry turns it into an error result. */
  execute(invocation: ToolInvocation<z.output<S>>): Promise<ToolResult>;
}

/**
 * Base class for tools. Subclasses set the fields and implement `execute`:
 *
 * ```ts
 * class Checkpoint extends Tool<typeof schema> {
 *   name = 'checkpoint'; description = 'Record a step'; kind = ToolKind.READ; schema = schema;
 *   async execute({ params }) { return ToolResult.success(`step ${params.step} complete`); }
 * }
 * ```
 */
export abstract class Tool<S extends z.ZodType = z.ZodType> implements ToolLike<S> {
  /** Unique name the model calls it by. */
  abstract readonly name: string;
  /** What the tool does, for the model. */
  abstract readonly description: string;
  /** What it does to the world. */
  abstract readonly kind: ToolKind;
  /** Argument schema. */
  abstract readonly schema: S;
  /** May run at the same time as other safe calls. Default: `kind === 'read'`. */
  readonly concurrencySafe?: boolean;
  /**
   * Running it twice has the same effect as running it once, so a call left in doubt by a crash
   * may run again on resume. Default: `kind === 'read'`.
   */
  readonly idempotent?: boolean;
  /** Per-call time limit overriding `Config.toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /** The configuration the tool was made with (the workspace, limits). */
  protected readonly config: Config | undefined;

  constructor(config?: Config) {
    this.config = config;
  }

  /** Runs the call. Throwing is allowed: the registry turns it into an error result. */
  abstract execute(invocation: ToolInvocation<z.output<S>>): Promise<ToolResult>;
}

/** What a {@link defineTool} tool's `execute` may return: a result, its output text, or plain JSON. */
export type ToolAnswer = ToolResult | string | JsonValue;

/** The fields of {@link defineTool}. */
export interface ToolSpec<S extends z.ZodType> {
  /** Unique name the model calls it by. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** What it does to the world. */
  readonly kind: ToolKind;
  /** Argument schema; also sent to the model as JSON Schema. */
  readonly schema: S;
  /** May run at the same time as other safe calls. Default: `kind === 'read'`. */
  readonly concurrencySafe?: boolean;
  /**
   * Running it twice has the same effect as running it once, so a call left in doubt by a crash
   * may run again on resume. Default: `kind === 'read'`.
   */
  readonly idempotent?: boolean;
  /** Per-call time limit overriding `Config.toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Runs the call; may return a {@link ToolResult} or, for success, just the output text, or any
   * other plain JSON value (an object, an array, a number), whose stable JSON is then the output.
   */
  execute(invocation: ToolInvocation<z.output<S>>): Promise<ToolAnswer> | ToolAnswer;
}

/** A tool's own `execute`, which may answer without a promise. */
type EagerExecute = (invocation: ToolInvocation<never>) => Promise<ToolAnswer> | ToolAnswer;

/** Where {@link defineTool} keeps the spec's `execute` next to the `execute` it wraps it in. */
const EAGER = Symbol('agent-harness.eagerExecute');

interface EagerTool {
  readonly [EAGER]?: { readonly wrapper: ToolLike['execute']; readonly execute: EagerExecute };
}

/**
 * The spec's own `execute` of a tool made by {@link defineTool}, for the registry to call so
 * that a synchronous tool costs the loop no microtask; undefined for any other tool, or when
 * the tool's `execute` was replaced after it was made (the replacement then counts).
 */
export function eagerExecuteOf(tool: ToolLike): EagerExecute | undefined {
  const eager = (tool as EagerTool)[EAGER];
  return eager !== undefined && eager.wrapper === tool.execute ? eager.execute : undefined;
}

/** Makes a tool from a plain object (the function style). */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolLike<S> {
  if (typeof spec !== 'object' || spec === null)
    throw new HarnessError(
      'invalid_argument',
      `defineTool(spec): spec must be an object, got ${spec === null ? 'null' : typeof spec}`,
    );
  if (typeof spec.execute !== 'function')
    throw new HarnessError('invalid_argument', `defineTool: tool '${String(spec.name)}' needs an execute function`);
  const { execute, ...fields } = spec;
  const tool: ToolLike<S> = {
    ...fields,
    async execute(invocation) {
      return resultOfAnswer(spec.name, await execute(invocation));
    },
  };
  // Not enumerable: a copy made with a spread, which may replace `execute`, leaves it behind.
  Object.defineProperty(tool, EAGER, { value: { wrapper: tool.execute, execute } });
  return tool;
}
