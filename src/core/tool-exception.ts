import { errorMessage } from './errors.js';
import { ToolResult } from './tool-result.js';

/**
 * What a tool threw, kept for its developer: on the result (`result.exception`), on the
 * `tool_call_complete` event and in the debug log, never in the model's context or the journal.
 */
export interface ToolException {
  /** The error's class name (`TypeError`), or `typeof` of a thrown non-error. */
  readonly name: string;
  readonly message: string;
  /** The stack trace, when the thrown value had one. */
  readonly stack?: string;
}

/** The {@link ToolException} of a thrown value. */
export function exceptionOf(thrown: unknown): ToolException {
  const message = errorMessage(thrown);
  if (!(thrown instanceof Error)) return { name: typeof thrown, message };
  try {
    const { name, stack } = thrown;
    return typeof stack === 'string' ? { name: String(name), message, stack } : { name: String(name), message };
  } catch {
    // A getter that throws: what is left is the message the model was shown.
    return { name: 'Error', message };
  }
}

/**
 * `result` carrying `exception` as a property that is not enumerable: the result stays the same
 * plain JSON (equal, serialised, journaled) whether or not its tool threw.
 */
export function withException(result: ToolResult, exception: ToolException | undefined): ToolResult {
  if (exception !== undefined) Object.defineProperty(result, 'exception', { value: exception });
  return result;
}

/** The error result of a tool that threw `thrown`: `Internal error: <message>`, carrying what was thrown. */
export function thrownResult(thrown: unknown): ToolResult {
  return withException(ToolResult.error(`Internal error: ${errorMessage(thrown)}`), exceptionOf(thrown));
}
