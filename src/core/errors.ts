const MARKER = Symbol.for('agent-harness.error');

/** Machine-readable reasons carried by {@link HarnessError}. */
export type HarnessErrorReason =
  | 'invalid_config'
  | 'invalid_argument'
  | 'invalid_journal'
  | 'unsupported_journal_version'
  | 'script_exhausted'
  | 'model_error'
  | 'already_running'
  | 'nothing_to_resume'
  | 'no_client'
  | 'journal_corrupt'
  | 'subscriber_timeout'
  | 'mcp_error'
  | 'session_locked'
  | 'session_not_found'
  | 'store_error'
  | 'missing_dependency'
  | 'restate_error'
  | 'invalid_cassette'
  | 'unsupported_cassette_version'
  | 'cassette_diverged'
  | 'invalid_content';

/**
 * The one error class the library throws. Failures of actions (a tool that fails, a model
 * that errors) are not thrown: they become results and events. This is for misuse the
 * caller can fix: bad configuration, an unreadable journal, a second concurrent run.
 */
export class HarnessError extends Error {
  /** Machine-readable reason. */
  readonly reason: HarnessErrorReason;
  constructor(reason: HarnessErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.reason = reason;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** The same as {@link HarnessError.reason}, under the name Node's own errors use. */
  get code(): HarnessErrorReason {
    return this.reason;
  }

  /** True for a {@link HarnessError}, even one from another copy of the library. */
  static isInstance(value: unknown): value is HarnessError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
