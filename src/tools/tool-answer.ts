import { errorMessage } from '../core/errors.js';
import { stableJson } from '../core/stable-json.js';
import { exceptionOf, withException } from '../core/tool-exception.js';
import { ToolResult } from '../core/tool-result.js';

function isToolResult(value: object): value is ToolResult {
  return typeof (value as { success?: unknown }).success === 'boolean';
}

function isPlainJson(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** What a value is, for a message: `undefined`, `a Map`, `a function`. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
}

/**
 * The {@link ToolResult} of what a tool's `execute` returned: text is its output; an object with
 * a boolean `success` is a ToolResult (a missing output is empty, a missing error says so); any
 * other JSON value (a plain object, an array, a number, a boolean, null) is a success whose
 * output is its stable JSON (keys sorted). Anything else (undefined, a function, a class
 * instance such as a Map) is an internal error naming what was returned.
 */
export function resultOfAnswer(name: string, value: unknown): ToolResult {
  if (typeof value === 'string') return ToolResult.success(value);
  if (typeof value === 'object' && value !== null && isToolResult(value)) {
    if (value.success && value.content !== undefined) {
      return Array.isArray(value.content)
        ? ToolResult.content(value.content)
        : ToolResult.error(`Internal error: tool '${name}' returned content that is not an array of parts`);
    }
    return value.success
      ? ToolResult.success(String(value.output ?? ''))
      : ToolResult.error(String(value.error ?? 'failed without a message'));
  }
  const json =
    value === null ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'object' && isPlainJson(value));
  if (!json) {
    return ToolResult.error(
      `Internal error: tool '${name}' returned ${kindOf(value)}; return text, a ToolResult or plain JSON`,
    );
  }
  try {
    return ToolResult.success(stableJson(value));
  } catch (error) {
    return withException(
      ToolResult.error(`Internal error: tool '${name}' returned a value with no JSON form: ${errorMessage(error)}`),
      exceptionOf(error),
    );
  }
}
