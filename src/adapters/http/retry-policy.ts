import { type Sleep, sleep } from './sleep.js';

/** How failed requests are retried. Every field has a default; tests inject `sleep` and `random`. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  readonly maxRetries?: number;
  /** First backoff step in milliseconds; doubles each retry. Default 500. */
  readonly baseDelayMs?: number;
  /** Cap of one backoff step. Default 8000. */
  readonly maxDelayMs?: number;
  /** Longest `Retry-After` we honour; a longer one fails at once. Default 60000. */
  readonly maxRetryAfterMs?: number;
  /** Waits between attempts (abortable). */
  readonly sleep?: Sleep;
  /** Uniform [0, 1) source for jitter. */
  readonly random?: () => number;
}

/** {@link RetryOptions} with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Fills in the defaults of {@link RetryOptions}. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: options.maxRetries ?? 2,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
  };
}

/**
 * The wait before retry number `retry` (0-based): the server's `Retry-After` when it gave one,
 * else exponential backoff with jitter (between 75% and 100% of `base · 2^retry`, capped).
 */
export function backoffDelay(retry: number, policy: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(step * (1 - 0.25 * policy.random()));
}
