import type { StreamEvent } from '../../core/stream-event.js';
import { type ResponseHead, requireEventStream } from './event-stream-check.js';
import { IdleWatchdog } from './idle-watchdog.js';
import { ModelError } from './model-error.js';
import { type RetryOptions, retryPolicy } from './retry-policy.js';
import { classifySdkError, type SdkErrorClasses } from './sdk-errors.js';
import { type RetryNotice, withRetries } from './with-retries.js';

/** What an SDK's `create(…).withResponse()` gives for a streaming request. */
export interface OpenedStream {
  /** The decoded stream events (read lazily: nothing is consumed before iterating). */
  readonly data: AsyncIterable<unknown>;
  /** The HTTP response, to check what arrived before reading it as a stream. */
  readonly response: ResponseHead;
}

/** One streamed request through an official SDK. */
export interface StreamRequest {
  /** `openai` or `anthropic`, for messages. */
  readonly provider: string;
  /** The base URL, for messages. */
  readonly endpoint: string;
  /** The SDK's error classes. */
  readonly errors: SdkErrorClasses;
  /** Milliseconds to wait for the response to start, and between two chunks. */
  readonly timeoutMs: number;
  readonly retry?: RetryOptions | undefined;
  readonly onRetry?: ((notice: RetryNotice) => void) | undefined;
  /** The caller's signal. */
  readonly signal?: AbortSignal | undefined;
  /** Sends the request (SDK retries off); resolves once the response started, with its stream and response. */
  readonly open: (signal: AbortSignal) => Promise<OpenedStream>;
  /** Maps the provider's chunks onto our events; `where` names the endpoint in errors. */
  readonly map: (chunks: AsyncIterable<unknown>, where: string) => AsyncIterable<StreamEvent>;
}

async function* kicking<T>(items: AsyncIterable<T>, watchdog: IdleWatchdog): AsyncGenerator<T> {
  for await (const item of items) {
    watchdog.kick();
    yield item;
  }
}

/** One attempt's own cancellation and idle time-out. */
interface Attempt {
  readonly controller: AbortController;
  readonly watchdog: IdleWatchdog;
}

/**
 * Opens the stream with bounded retries (statuses, connection failures and time-outs before
 * any byte of the turn), then maps it. Once the turn is streaming nothing is retried: a failure
 * there throws, and the agent discards the partial turn. Every failure is a {@link ModelError}.
 */
export async function* streamRequest(request: StreamRequest): AsyncGenerator<StreamEvent> {
  const { provider, endpoint, errors, timeoutMs } = request;
  const where = `${provider} at ${endpoint}`;
  // Each attempt gets its own controller: a time-out aborts that attempt only, so the next one
  // can still go out (one controller for all of them made a time-out look like the caller's abort).
  let attempt: Attempt | undefined;
  const classify = (error: unknown): ModelError => {
    if (!request.signal?.aborted) {
      // A stalled stream that the watchdog cut may end quietly, and the map then reports an
      // early end: the time-out is the cause.
      if (attempt?.watchdog.fired || error instanceof errors.APIConnectionTimeoutError) {
        if (error instanceof ModelError && error.kind === 'timeout') return error;
        return new ModelError('timeout', `${where}: no response for ${timeoutMs} ms`, { cause: error });
      }
      if (error instanceof ModelError) return error;
    }
    return classifySdkError(error, errors, { provider, endpoint, signal: request.signal });
  };
  const onRetry = (notice: RetryNotice): void => {
    attempt?.watchdog.stop();
    request.onRetry?.(notice);
  };
  const open = async (): Promise<AsyncIterable<unknown>> => {
    attempt?.controller.abort('retrying');
    const controller = new AbortController();
    const current: Attempt = { controller, watchdog: new IdleWatchdog(timeoutMs, controller) };
    attempt = current;
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    const { data, response } = await request.open(signal);
    await requireEventStream(response, where);
    return kicking(data, current.watchdog);
  };
  try {
    const policy = retryPolicy(request.retry);
    const chunks = await withRetries(open, { policy, classify, signal: request.signal, onRetry });
    yield* request.map(chunks, where);
  } catch (error) {
    throw classify(error);
  } finally {
    attempt?.watchdog.stop();
    attempt?.controller.abort('request finished');
  }
}
