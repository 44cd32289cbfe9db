import { HarnessError } from '../core/errors.js';
import type { ToolCall } from '../core/messages.js';
import { type FinishReason, type StreamEvent, textOf } from '../core/stream-event.js';
import { type TokenUsage, ZERO_USAGE } from '../core/usage.js';

/** A completed model turn, as the machine receives it. */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** For each call, whether it may run concurrently with its safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
  readonly usage: TokenUsage;
  readonly finishReason?: FinishReason;
  /** Milliseconds since the run started, when the turn completed. */
  readonly elapsedMs: number;
}

/** What a stream adds up to, before the agent annotates it. */
export type StreamedTurn = Omit<ModelTurn, 'concurrencySafe' | 'elapsedMs'>;

function streamErrorText(error: StreamEvent['error']): string {
  if (error === undefined) return 'the model stream reported an error';
  return typeof error === 'string' ? error : error.code ? `${error.message} (${error.code})` : error.message;
}

function checkToolCall(call: ToolCall | undefined, seen: Set<string>): ToolCall {
  // `id` is accepted too: it is what OpenAI-shaped code tends to write.
  const callId = call?.callId ?? (call as { id?: unknown } | undefined)?.id;
  if (call === undefined || typeof callId !== 'string' || callId === '' || typeof call.name !== 'string') {
    throw new HarnessError('model_error', 'the model sent a tool call without a callId or name');
  }
  if (seen.has(callId)) {
    throw new HarnessError('model_error', `the model sent two tool calls with the id '${callId}'`);
  }
  seen.add(callId);
  return Object.freeze({ callId, name: call.name, arguments: toolArguments(call.arguments) });
}

/**
 * Arguments as {@link ToolCall} types them: an object, or raw text. Anything else a client sends
 * (a number, an array, `true`) is kept as its JSON text, so the registry answers `Invalid
 * parameters` and the journal stays replayable (journal entries accept only objects and text).
 */
function toolArguments(raw: unknown): ToolCall['arguments'] {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'object' && !Array.isArray(raw)) return raw as ToolCall['arguments'];
  return JSON.stringify(raw) ?? String(raw);
}

/**
 * Reads one model stream to its end (or `message_complete`), calling `onText` for each text
 * delta (awaited: backpressure). Throws on an `error` event; the caller discards the turn.
 */
export async function readModelStream(
  events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>,
  onText: (delta: string) => Promise<void>,
): Promise<StreamedTurn> {
  let text = '';
  const toolCalls: ToolCall[] = [];
  const seen = new Set<string>();
  let usage = ZERO_USAGE;
  let finishReason: FinishReason | undefined;
  for await (const event of events) {
    if (event.type === 'text_delta') {
      const delta = textOf(event.textDelta);
      if (delta === '') continue;
      text += delta;
      await onText(delta);
    } else if (event.type === 'tool_call_complete') {
      toolCalls.push(checkToolCall(event.toolCall, seen));
    } else if (event.type === 'message_complete') {
      if (event.usage) usage = event.usage;
      finishReason = event.finishReason;
      break;
    } else if (event.type === 'error') {
      throw new HarnessError('model_error', streamErrorText(event.error));
    }
  }
  return finishReason === undefined ? { text, toolCalls, usage } : { text, toolCalls, usage, finishReason };
}
