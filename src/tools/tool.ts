import type { z } from 'zod';
import type { Config } from '../config/config.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { ToolKind } from './tool-kind.js';
import type { ToolResult } from './tool-result.js';

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
}

/** The surface the registry needs from a tool, whichever way it was made. */
export interface ToolLike<S extends z.ZodType = z.ZodType> {
  /** Unique name the model calls it by (letters, digits, `_` and `-`, at most 64). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** What it does to the world. */
  readonly kind: ToolKind;
  /** Argument schema; also sent to the model as JSON Schema. */
  readonly schema: S;
  /** May run at the same time as other safe calls. Default: `kind === 'read'`. */
  readonly concurrencySafe?: boolean;
  /** Per-call time limit overriding `Config.toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Runs the call. Throwing is allowed: the registry turns it into an error result. A tool that
   * can answer at once may return its result directly: the loop then moves on without waiting
   * for a microtask.
   */
  execute(invocation: ToolInvocation<z.output<S>>): Promise<ToolResult> | ToolResult;
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
  /** Per-call time limit overriding `Config.toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Runs the call; may return a {@link ToolResult} or, for success, just the output text. */
  execute(invocation: ToolInvocation<z.output<S>>): Promise<ToolResult | string> | ToolResult | string;
}

/** Makes a tool from a plain object (the function style). */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolLike<S> {
  const { execute, ...fields } = spec;
  return {
    ...fields,
    // Not `async`: a tool that answers synchronously keeps answering synchronously.
    execute(invocation) {
      const result = execute(invocation);
      return isPromiseLike(result) ? Promise.resolve(result).then(asResult) : asResult(result);
    },
  };
}

function asResult(result: ToolResult | string): ToolResult {
  return typeof result === 'string' ? { success: true, output: result } : result;
}
