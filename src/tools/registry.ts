import type { z } from 'zod';
import type { Config } from '../config/config.js';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS } from '../config/config.js';
import { checkContent } from '../core/content-check.js';
import { type ContentPart, DEFAULT_MAX_ATTACHMENT_BYTES, type MessageContent } from '../core/content-parts.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { LazyAbort } from '../core/lazy-abort.js';
import { isPromiseLike } from '../core/promise-like.js';
import { withException } from '../core/tool-exception.js';
import { describeIssues, parametersSchema, parseArguments, type ToolDefinition } from '../core/tool-params.js';
import { ToolResult } from '../core/tool-result.js';
import { crashedResult, runGuarded } from './run-guarded.js';
import type { ToolLike } from './tool.js';
import type { ToolRunContext } from './tool-run-context.js';
import { truncateOutput } from './truncate.js';
import { zodSchemaProblem } from './zod-schema.js';

/** Options of {@link ToolRegistry.invoke}. */
export interface InvokeOptions {
  /** The model's call id (passed to the tool). */
  readonly callId?: string;
  /** Aborts the call; the result is then an error that says so. */
  readonly signal?: AbortSignal;
  /** Overrides the tool's and the config's time limit. */
  readonly timeoutMs?: number;
  /** The agent run making the call (the agent passes it; sub-agent and handoff tools need it). */
  readonly run?: ToolRunContext;
}

/**
 * Options of {@link ToolRegistry.invokeEager}: its signal may also be a {@link LazyAbort}, whose
 * `AbortSignal` is made only if the tool reads it.
 */
export interface EagerInvokeOptions extends Omit<InvokeOptions, 'signal'> {
  /** Aborts the call; the result is then an error that says so. */
  readonly signal?: AbortSignal | LazyAbort;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool of any schema, as the registry stores it. */
export type AnyTool = ToolLike<z.ZodType>;

/**
 * The tools an agent may call. `invoke` never throws: every failure (unknown tool, bad or
 * non-JSON arguments, a throwing tool, a timeout, an abort) is an error {@link ToolResult}.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private cachedDefinitions: ToolDefinition[] | undefined;
  private readonly cwd: string;
  private readonly timeoutMs: number | undefined;
  private readonly maxOutputChars: number;
  private readonly maxAttachmentBytes: number;

  constructor(config?: Config) {
    this.cwd = config?.cwd ?? process.cwd();
    this.timeoutMs = config?.toolTimeoutMs;
    this.maxOutputChars = config?.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
    this.maxAttachmentBytes = config?.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  }

  /**
   * Adds tools, all or none. Throws `invalid_argument` naming the tool for a bad or duplicate
   * name (one already registered, or twice in the call), a missing schema or `execute`.
   */
  register(...tools: readonly AnyTool[]): this {
    const names = new Set<string>();
    for (const tool of tools) {
      this.check(tool);
      if (names.has(tool.name)) {
        throw new HarnessError('invalid_argument', `two tools named '${tool.name}' in one register() call`);
      }
      names.add(tool.name);
    }
    if (tools.length === 0) return this;
    for (const tool of tools) this.tools.set(tool.name, tool);
    this.cachedDefinitions = undefined;
    return this;
  }

  /** Removes the tool with this name; returns whether there was one. */
  unregister(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.cachedDefinitions = undefined;
    return removed;
  }

  private check(tool: AnyTool): void {
    if (typeof tool?.name !== 'string' || !NAME.test(tool.name)) {
      throw new HarnessError('invalid_argument', `tool name ${JSON.stringify(tool?.name)} must match ${NAME}`);
    }
    if (this.tools.has(tool.name)) {
      const from = this.tools.get(tool.name)?.source;
      const where = from === undefined ? '' : ` (from ${from})`;
      throw new HarnessError('invalid_argument', `a tool named '${tool.name}' is already registered${where}`);
    }
    if (typeof tool.schema?.safeParse !== 'function') {
      throw new HarnessError('invalid_argument', `tool '${tool.name}' needs a zod schema`);
    }
    const problem = zodSchemaProblem(tool.schema, `tool '${tool.name}' schema`);
    if (problem !== undefined) throw new HarnessError('invalid_config', problem);
    if (typeof tool.execute !== 'function') {
      throw new HarnessError('invalid_argument', `tool '${tool.name}' needs an execute function`);
    }
  }

  /** Whether a tool with this name is registered. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The tool with this name, if registered. */
  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /** The sandbox of each tool that declares one (`ToolLike.sandbox`), by name; undefined when none does. */
  sandboxes(): Readonly<Record<string, string>> | undefined {
    const found: Record<string, string> = {};
    for (const [name, tool] of this.tools) if (typeof tool.sandbox === 'string') found[name] = tool.sandbox;
    return Object.keys(found).length === 0 ? undefined : found;
  }

  /** Names of all tools, in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Whether a call to this tool may run concurrently with other safe calls. */
  isConcurrencySafe(name: string): boolean {
    const tool = this.tools.get(name);
    return tool !== undefined && (tool.concurrencySafe ?? tool.kind === 'read');
  }

  /**
   * Whether a call to this tool may run again when a crash left it in doubt (started, no result
   * recorded): its `idempotent` flag, by default true for kind `read`. False for an unknown tool.
   */
  isIdempotent(name: string): boolean {
    const tool = this.tools.get(name);
    return tool !== undefined && (tool.idempotent ?? tool.kind === 'read');
  }

  /**
   * Definitions for the model, computed once per set of tools: JSON Schema from zod, or a
   * tool's own `parameters` as they are.
   */
  definitions(): readonly ToolDefinition[] {
    this.cachedDefinitions ??= [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? parametersSchema(tool.schema),
    }));
    return this.cachedDefinitions;
  }

  /** Validates and runs one call. Never throws; never rejects. */
  invoke(name: string, params: unknown, options: InvokeOptions = {}): Promise<ToolResult> {
    const result = this.run(name, params, options);
    return isPromiseLike(result) ? result : Promise.resolve(result);
  }

  /**
   * {@link ToolRegistry.invoke}, but a call that is answered at once (a tool made by
   * `defineTool` whose `execute` returns without a promise, an unknown tool, invalid arguments)
   * returns its result directly. This is what the agent calls: a synchronous tool then costs
   * the loop no microtask. A subclass that overrides `invoke` gets its `invoke` called.
   */
  invokeEager(name: string, params: unknown, options: EagerInvokeOptions = {}): ToolResult | Promise<ToolResult> {
    if (this.invoke !== ToolRegistry.prototype.invoke) {
      const { signal } = options;
      return this.invoke(
        name,
        params,
        signal instanceof LazyAbort ? { ...options, signal: signal.signal } : (options as InvokeOptions),
      );
    }
    return this.run(name, params, options);
  }

  private run(name: string, params: unknown, options: EagerInvokeOptions): ToolResult | Promise<ToolResult> {
    let result: ToolResult | Promise<ToolResult>;
    try {
      result = this.invokeUncapped(name, params, options ?? {});
    } catch (error) {
      // Only arguments of the wrong type get here (a JavaScript caller's `null` options, say).
      return crashedResult(String(name), '', error);
    }
    return isPromiseLike(result) ? result.then((settled) => this.cap(name, settled)) : this.cap(name, result);
  }

  private invokeUncapped(name: string, params: unknown, options: EagerInvokeOptions): ToolResult | Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (tool === undefined) return ToolResult.error(this.unknownToolMessage(name));
    const parsed = parseArguments(params);
    if (!parsed.ok) return ToolResult.error(parsed.problem);
    let checked: ReturnType<AnyTool['schema']['safeParse']>;
    try {
      checked = tool.schema.safeParse(parsed.value);
    } catch (error) {
      // A refinement of the tool's schema threw.
      return crashedResult(name, options.callId ?? '', error);
    }
    if (!checked.success) return ToolResult.error(describeIssues(checked.error));
    return runGuarded(tool, {
      params: checked.data,
      callId: options.callId ?? '',
      cwd: this.cwd,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? tool.timeoutMs ?? this.timeoutMs,
      run: options.run,
    });
  }

  private unknownToolMessage(name: string): string {
    const names = this.names();
    const available = names.length === 0 ? 'none' : names.join(', ');
    return `Unknown tool '${name}'. Available tools: ${available}`;
  }

  private cap(name: string, result: ToolResult): ToolResult {
    const max = this.maxOutputChars;
    if (result.success && result.content !== undefined) return this.capParts(name, result.content);
    if (result.success) {
      const output = result.output ?? '';
      return output.length > max ? { success: true, output: truncateOutput(output, max) } : result;
    }
    const error = result.error ?? '';
    return error.length > max
      ? withException({ success: false, error: truncateOutput(error, max) }, result.exception)
      : result;
  }

  /**
   * A result of parts: validated (an image or file over `maxAttachmentBytes`, or a malformed
   * part, makes the call's error, naming the tool and where it came from, such as
   * `mcp:<server>`), each text part cut at the output cap.
   */
  private capParts(name: string, parts: readonly ContentPart[]): ToolResult {
    let checked: MessageContent;
    try {
      const source = this.tools.get(name)?.source;
      const from = source === undefined ? '' : ` (from ${source})`;
      checked = checkContent(parts, `tool '${String(name)}'${from} result`, this.maxAttachmentBytes);
    } catch (error) {
      return ToolResult.error(errorMessage(error));
    }
    const max = this.maxOutputChars;
    const capped = (checked as readonly ContentPart[]).map((part) =>
      part.type === 'text' && part.text.length > max
        ? { type: 'text' as const, text: truncateOutput(part.text, max) }
        : part,
    );
    return ToolResult.content(capped);
  }
}
