import { HarnessError } from '../../core/errors.js';

/** What kind of failure a model request met; decides whether it is retried. */
export type ModelErrorKind =
  | 'authentication'
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'context_length'
  | 'bad_request'
  | 'connection'
  | 'unreachable'
  | 'timeout'
  | 'aborted'
  | 'stream'
  | 'missing_sdk';

/** Options of {@link ModelError}. */
export interface ModelErrorOptions {
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** Milliseconds the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set([
  'rate_limited',
  'overloaded',
  'server',
  'connection',
  'timeout',
]);

/**
 * A failed model request, after retries. Its `reason` is `model_error` (so the agent ends the
 * run with that reason) and `kind` says what went wrong. The message names the provider and
 * the endpoint, and is one line meant for people.
 */
export class ModelError extends HarnessError {
  /** What went wrong. */
  readonly kind: ModelErrorKind;
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** Milliseconds the server asked us to wait before retrying. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    super('model_error', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** True for failures worth another attempt: 408/409/429/5xx (529 overloaded included), a dropped connection, a time-out. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
