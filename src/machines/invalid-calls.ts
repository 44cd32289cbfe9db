import type { ToolCall } from '../core/messages.js';
import type { ToolResult } from '../core/tool-result.js';
import type { StopInfo } from './agent-machine-types.js';

/** Invalid calls to one tool since a call to it last succeeded, and the last one's error. */
export interface InvalidCallCount {
  readonly count: number;
  /** The validation error of the last invalid call. */
  readonly lastError: string;
}

/** Per tool name: its invalid calls in this run since one of its calls last succeeded. */
export type InvalidCalls = Readonly<Record<string, InvalidCallCount>>;

/** No invalid calls. */
export const NO_INVALID_CALLS: InvalidCalls = Object.freeze({});

const INVALID_PREFIXES = ['Invalid parameters', 'Unknown tool '] as const;

/**
 * The validation error of an invalid call (its arguments are not valid JSON or fail the tool's
 * schema, or it names no tool), from its result's error; undefined for any other outcome. A
 * tool that ran and failed is not an invalid call.
 */
export function invalidCallError(result: ToolResult): string | undefined {
  if (result.success) return undefined;
  const error = result.error ?? '';
  return INVALID_PREFIXES.some((prefix) => error.startsWith(prefix)) ? error : undefined;
}

/** {@link invalidCallError} for a journaled tool message (`Error: …`). */
export function invalidCallErrorOfContent(content: string): string | undefined {
  if (!content.startsWith('Error: ')) return undefined;
  return invalidCallError({ success: false, error: content.slice('Error: '.length) });
}

/**
 * The counts after one call's outcome: an invalid call adds one to its tool's count, a success
 * clears it, any other outcome (a tool that ran and failed) leaves it. Returns `counts` itself
 * when nothing changed.
 */
export function countCall(
  counts: InvalidCalls,
  name: string,
  invalid: string | undefined,
  success: boolean,
): InvalidCalls {
  if (invalid !== undefined) {
    return { ...counts, [name]: { count: (counts[name]?.count ?? 0) + 1, lastError: invalid } };
  }
  if (success && counts[name] !== undefined) {
    const { [name]: _cleared, ...rest } = counts;
    return rest;
  }
  return counts;
}

/** The counts after results `from`..`to` of a turn, taken in call order. */
export function countResults(
  counts: InvalidCalls,
  calls: readonly ToolCall[],
  results: readonly (ToolResult | undefined)[],
  from: number,
  to: number,
): InvalidCalls {
  let next = counts;
  for (let index = from; index < to; index++) {
    const result = results[index];
    if (result === undefined) continue;
    next = countCall(next, (calls[index] as ToolCall).name, invalidCallError(result), result.success);
  }
  return next;
}

/** The `invalid_tool_calls` stop when some tool has `max` invalid calls or more, else null. */
export function invalidCallsStop(counts: InvalidCalls, max: number): StopInfo | null {
  // for…in, not Object.entries: this runs at every budgetCheck, almost always over no counts.
  for (const name in counts) {
    const { count, lastError } = counts[name] as InvalidCallCount;
    if (count >= max) {
      return {
        reason: 'invalid_tool_calls',
        message: `the model sent ${count} invalid calls to '${name}' in a row; the last: ${lastError}`,
      };
    }
  }
  return null;
}
