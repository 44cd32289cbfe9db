import { ModelError } from './model-error.js';
import { backoffDelay, type RetryPolicy } from './retry-policy.js';

/** What {@link withRetries} reports before each wait, e.g. for logging. */
export interface RetryNotice {
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
  readonly error: ModelError;
}

/** Options of {@link withRetries}. */
export interface WithRetriesOptions {
  readonly policy: RetryPolicy;
  /** Turns whatever an attempt threw into a {@link ModelError}. */
  readonly classify: (error: unknown) => ModelError;
  readonly signal?: AbortSignal | undefined;
  readonly onRetry?: ((notice: RetryNotice) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, or the retries are used up;
 * then throws the last failure as a {@link ModelError}. Waits honour `Retry-After` and stop at
 * once when `signal` aborts.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: WithRetriesOptions): Promise<T> {
  const { policy, classify, signal } = options;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (thrown) {
      const error = classify(thrown);
      if (!error.retryable || retry >= policy.maxRetries || signal?.aborted) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) {
        throw new ModelError(
          error.kind,
          `${error.message}; the server asks to retry after ${Math.ceil(error.retryAfterMs / 1000)} s, longer than the ${Math.ceil(policy.maxRetryAfterMs / 1000)} s we wait`,
          { status: error.status, retryAfterMs: error.retryAfterMs, cause: error },
        );
      }
      const delayMs = backoffDelay(retry, policy, error.retryAfterMs);
      options.onRetry?.({ retry: retry + 1, delayMs, error });
      try {
        await policy.sleep(delayMs, signal);
      } catch {
        throw classify(signal?.reason ?? thrown);
      }
    }
  }
}
