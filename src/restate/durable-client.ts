import { ModelError, type ModelErrorKind } from '../adapters/http/model-error.js';
import type { Message } from '../core/messages.js';
import type { ChatCompletionOptions, ModelClient, ModelStream } from '../core/model-client.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-params.js';
import type { DurableSteps } from './durable-steps.js';

/** A model turn as a step records it: the turn's chunks, or why it failed. */
type RecordedTurn =
  | { readonly events: readonly StreamEvent[] }
  | { readonly error: { readonly message: string; readonly kind?: ModelErrorKind; readonly status?: number } };

/**
 * A model client whose every turn is one durable step: the turn is asked once, its chunks are
 * recorded, and a re-execution gets the recorded chunks without asking again. A failed request
 * is recorded too (the client's own retries have run by then), so the run ends the same way.
 */
export class DurableClient implements ModelClient {
  readonly model: string | undefined;
  readonly provider: string | undefined;

  constructor(
    private readonly inner: ModelClient,
    private readonly steps: DurableSteps,
  ) {
    this.model = inner.model;
    this.provider = inner.provider;
  }

  chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): ModelStream {
    return this.turn(messages, tools, options);
  }

  private async *turn(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    options: ChatCompletionOptions,
  ): AsyncGenerator<StreamEvent> {
    const recorded = await untilAborted(
      this.steps.run('model turn', () => askOnce(this.inner, messages, tools, options)),
      options.signal,
    );
    if ('error' in recorded) {
      const { message, kind, status } = recorded.error;
      throw kind === undefined
        ? new Error(message)
        : new ModelError(kind, message, status === undefined ? {} : { status });
    }
    yield* recorded.events;
  }
}

async function askOnce(
  client: ModelClient,
  messages: readonly Message[],
  tools: readonly ToolDefinition[] | undefined,
  options: ChatCompletionOptions,
): Promise<RecordedTurn> {
  try {
    const events: StreamEvent[] = [];
    for await (const event of await client.chatCompletion(messages, tools, options)) events.push(event);
    return { events };
  } catch (error) {
    if (error instanceof ModelError) {
      return {
        error: {
          message: error.message,
          kind: error.kind,
          ...(error.status === undefined ? {} : { status: error.status }),
        },
      };
    }
    return { error: { message: error instanceof Error ? error.message : String(error) } };
  }
}

/** `promise`, or a rejection once `signal` aborts (the run was aborted while the step ran). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
