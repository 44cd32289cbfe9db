import { errorMessage, HarnessError } from '../../core/errors.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../../core/model-client.js';
import { isPromiseLike } from '../../core/promise-like.js';
import { StreamEvent, type StreamEventType } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { FallbackError, type FallbackFailure } from './fallback-error.js';
import { DEFAULT_FALLBACK_ON, type FallbackReason, reasonOfError, reasonOfStreamError } from './fallback-reason.js';

/** Options of {@link fallbackClient}. */
export interface FallbackOptions {
  /** The failures that move on to the next model; others end the turn as they would alone. */
  readonly on?: readonly FallbackReason[];
  /**
   * Milliseconds a model that failed is skipped for, so that later turns do not wait on it again
   * (0, the default: every turn starts at the first model). When every model is cooling down, the
   * chain is tried in order anyway.
   */
  readonly cooldownMs?: number;
  /** The clock, for tests (`Date.now` by default). */
  readonly now?: () => number;
}

const REASONS: ReadonlySet<string> = new Set<FallbackReason>([
  'rate_limit',
  'overloaded',
  'server',
  'context_length',
  'timeout',
  'connection',
]);

/** Events that start the answer: once one went out, the turn is this model's, come what may. */
const ANSWER_STARTED: ReadonlySet<StreamEventType> = new Set<StreamEventType>([
  'text_delta',
  'tool_call_begin',
  'tool_call_delta',
  'tool_call_complete',
  'reasoning_delta',
  'reasoning_complete',
]);

/** A failure before the answer started that the chain moves on from. */
class Skip {
  constructor(readonly failure: FallbackFailure) {}
}

function nameOf(client: ModelClient, index: number): string {
  return client.model ?? client.provider ?? `model #${index + 1}`;
}

function checkOptions(clients: readonly ModelClient[], options: FallbackOptions): ReadonlySet<FallbackReason> {
  if (!Array.isArray(clients) || clients.length === 0) {
    throw new HarnessError('invalid_argument', 'fallbackClient takes a non-empty array of model clients');
  }
  clients.forEach((client, index) => {
    if (typeof client?.chatCompletion !== 'function') {
      throw new HarnessError('invalid_argument', `fallbackClient: client #${index + 1} has no chatCompletion method`);
    }
  });
  const on = options.on ?? DEFAULT_FALLBACK_ON;
  for (const reason of on) {
    if (!REASONS.has(reason)) {
      throw new HarnessError(
        'invalid_argument',
        `fallbackClient: unknown reason '${String(reason)}' in 'on'; use ${[...REASONS].join(', ')}`,
      );
    }
  }
  const { cooldownMs = 0 } = options;
  if (!Number.isFinite(cooldownMs) || cooldownMs < 0) {
    throw new HarnessError(
      'invalid_argument',
      `fallbackClient: cooldownMs must be a non-negative number, got ${cooldownMs}`,
    );
  }
  return new Set(on);
}

/**
 * A {@link ModelClient} over several: each turn goes to the first model that is not cooling down;
 * when it fails before its answer started, for a reason in `options.on`, the turn goes to the
 * next one, and the switch is reported in the stream (a `model_switch` event, which the agent
 * journals). An answer that started is never moved: a failure after its first delta ends the turn
 * as it would without a chain. The turn's `message_complete` names the model that answered. When
 * every model failed, the turn fails with a {@link FallbackError} (`model_error`) listing each.
 */
export function fallbackClient(clients: readonly ModelClient[], options: FallbackOptions = {}): ModelClient {
  const on = checkOptions(clients, options);
  const chain = clients.slice();
  const cooldownMs = options.cooldownMs ?? 0;
  const now = options.now ?? Date.now;
  const failedAt: (number | undefined)[] = chain.map(() => undefined);

  /** The order this turn tries the models in: those not cooling down, or all when all are. */
  const order = (): number[] => {
    const time = now();
    const ready = chain
      .map((_, index) => index)
      .filter((index) => {
        const failed = failedAt[index];
        return failed === undefined || time - failed >= cooldownMs;
      });
    return ready.length > 0 ? ready : chain.map((_, index) => index);
  };

  async function* attempt(
    index: number,
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    options: ChatCompletionOptions | undefined,
  ): AsyncGenerator<StreamEvent, Skip | undefined> {
    const client = chain[index] as ModelClient;
    const model = nameOf(client, index);
    const skip = (reason: FallbackReason | undefined, message: string): Skip | undefined =>
      reason !== undefined && on.has(reason) && options?.signal?.aborted !== true
        ? new Skip({ model, reason, message })
        : undefined;
    let started = false;
    try {
      // Each model gets its own copy: a client may keep or change the array it was sent.
      const requested = client.chatCompletion(messages.slice(), tools, options);
      const events = isPromiseLike(requested) ? await requested : requested;
      for await (const event of events) {
        if (!started && event.type === 'error') {
          const next = skip(reasonOfStreamError(event.error), streamErrorText(event.error));
          if (next !== undefined) return next;
        }
        if (ANSWER_STARTED.has(event.type)) started = true;
        if (event.type === 'message_complete') {
          yield event.model === undefined && chain.length > 1 ? { ...event, model } : event;
          return undefined;
        }
        yield event;
      }
      return undefined;
    } catch (error) {
      const next = started ? undefined : skip(reasonOfError(error), errorMessage(error));
      if (next === undefined) throw error;
      return next;
    }
  }

  const first = chain[0] as ModelClient;
  const client: ModelClient = {
    async *chatCompletion(messages, tools, requestOptions) {
      const failures: FallbackFailure[] = [];
      for (const index of order()) {
        const last = failures.at(-1);
        if (last !== undefined) {
          const to = nameOf(chain[index] as ModelClient, index);
          yield StreamEvent.modelSwitch({ from: last.model, to, reason: last.reason, message: last.message });
        }
        const skipped = yield* attempt(index, messages, tools, requestOptions);
        if (skipped === undefined) return;
        failedAt[index] = now();
        failures.push(skipped.failure);
      }
      throw new FallbackError(failures);
    },
  };
  // The chain is named after its first model: traces and the reasoning filter see that one.
  return Object.freeze({
    ...client,
    ...(first.model !== undefined ? { model: first.model } : {}),
    ...(first.provider !== undefined ? { provider: first.provider } : {}),
  });
}

function streamErrorText(error: StreamEvent['error']): string {
  if (error === undefined) return 'the model stream reported an error';
  return typeof error === 'string' ? error : error.code ? `${error.message} (${error.code})` : error.message;
}
