import { HarnessError } from '../core/errors.js';
import { MAX_JSON_DEPTH, TOO_DEEP_ARGUMENTS, valueDeeperThan } from '../core/json-depth.js';
import type { ReasoningContent, ToolCall } from '../core/messages.js';
import { isPromiseLike } from '../core/promise-like.js';
import { reasoningPart } from '../core/reasoning.js';
import {
  type FinishReason,
  type ModelSwitch,
  type StreamEvent,
  type ToolCallDelta,
  textOf,
} from '../core/stream-event.js';
import { usageFromModel, ZERO_USAGE } from '../core/usage.js';
import type { StreamedTurn } from '../machines/model-turn.js';

function streamErrorText(error: StreamEvent['error']): string {
  if (error === undefined) return 'the model stream reported an error';
  return typeof error === 'string' ? error : error.code ? `${error.message} (${error.code})` : error.message;
}

function checkToolCall(call: ToolCall | undefined, earlier: readonly ToolCall[]): ToolCall {
  // `id` is accepted too: it is what OpenAI-shaped code tends to write.
  const callId = call?.callId ?? (call as { id?: unknown } | undefined)?.id;
  if (call === undefined || typeof callId !== 'string' || callId === '' || typeof call.name !== 'string') {
    throw new HarnessError('model_error', 'the model sent a tool call without a callId or name');
  }
  // A turn asks for a few calls: a scan costs less than a Set per turn (and a Set for many).
  const twice =
    earlier.length <= 32
      ? earlier.some((known) => known.callId === callId)
      : new Set(earlier.map((known) => known.callId)).has(callId);
  if (twice) throw new HarnessError('model_error', `the model sent two tool calls with the id '${callId}'`);
  return Object.freeze({ callId, name: call.name, arguments: deepFreeze(toolArguments(call.arguments)) });
}

/**
 * Freezes a call's arguments all the way down: the journal, the events and every subscriber
 * share them, so a subscriber must not be able to change what the tool gets or what is recorded.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for…in, not Object.values: no array per object (an array's indices are keys too).
    for (const key in value) deepFreeze(value[key]);
  }
  return value;
}

/**
 * Arguments as {@link ToolCall} types them: an object, or raw text. Anything else a client sends
 * (a number, an array, `true`) is kept as its JSON text, so the registry answers `Invalid
 * parameters` and the journal stays replayable (journal entries accept only objects and text).
 * An object nested deeper than {@link MAX_JSON_DEPTH} is recorded as {@link TOO_DEEP_ARGUMENTS}:
 * the registry refuses it as too deep, and no recursive walk (freezing, the journal's JSON) meets it.
 */
function toolArguments(raw: unknown): ToolCall['arguments'] {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') return raw;
  if (valueDeeperThan(raw, MAX_JSON_DEPTH)) return TOO_DEEP_ARGUMENTS;
  if (typeof raw === 'object' && !Array.isArray(raw)) return raw as ToolCall['arguments'];
  return JSON.stringify(raw) ?? String(raw);
}

/** Adds up the events of one model stream. */
class TurnReader {
  private text = '';
  /**
   * The deltas after the first, joined once at the end: `+=` would leave the answer as a chain of
   * one piece per delta, which V8 keeps (in the session's messages) at several times the size of
   * the flat string (bench:scale, heap per finished turn).
   */
  private pieces: string[] | undefined;
  /** The turn's reasoning parts, in order; made on the first one (most turns have none). */
  private reasoning: ReasoningContent[] | undefined;
  complete = false;
  private readonly toolCalls: ToolCall[] = [];
  private usage = ZERO_USAGE;
  private finishReason: FinishReason | undefined;
  private model: string | undefined;

  /**
   * Takes one event; returns its text delta, or its tool-call delta, when it has one. Throws on
   * an `error` event.
   */
  read(event: StreamEvent): string | ToolCallDelta | ReasoningDelta | SwitchNote | undefined {
    if (event.type === 'text_delta') {
      const delta = textOf(event.textDelta);
      if (delta === '') return undefined;
      if (this.pieces !== undefined) this.pieces.push(delta);
      else if (this.text === '') this.text = delta;
      else this.pieces = [this.text, delta];
      return delta;
    }
    if (event.type === 'tool_call_delta') return toolCallDelta(event.toolCallDelta);
    if (event.type === 'reasoning_delta') {
      const content = event.reasoningDelta;
      return typeof content === 'string' && content !== '' ? { reasoning: content } : undefined;
    }
    if (event.type === 'reasoning_complete') {
      const part = checkReasoning(event.reasoning);
      if (this.reasoning === undefined) this.reasoning = [part];
      else this.reasoning.push(part);
      return undefined;
    }
    if (event.type === 'tool_call_complete') {
      this.toolCalls.push(checkToolCall(event.toolCall, this.toolCalls));
    } else if (event.type === 'message_complete') {
      if (event.usage) this.usage = usageFromModel(event.usage);
      this.finishReason = event.finishReason;
      if (typeof event.model === 'string' && event.model !== '') this.model = event.model;
      this.complete = true;
    } else if (event.type === 'model_switch') {
      return { modelSwitch: checkSwitch(event.modelSwitch) };
    } else if (event.type === 'error') {
      throw new HarnessError('model_error', streamErrorText(event.error));
    }
    return undefined;
  }

  turn(): StreamedTurn {
    const { toolCalls, usage, finishReason, reasoning, model } = this;
    const text = this.pieces === undefined ? this.text : this.pieces.join('');
    const turn: StreamedTurn =
      finishReason === undefined ? { text, toolCalls, usage } : { text, toolCalls, usage, finishReason };
    if (reasoning === undefined && model === undefined) return turn;
    return {
      ...turn,
      ...(reasoning !== undefined ? { reasoning: Object.freeze(reasoning) } : {}),
      ...(model !== undefined ? { model } : {}),
    };
  }
}

/** A piece of reasoning as {@link TurnReader.read} hands it on. */
interface ReasoningDelta {
  readonly reasoning: string;
}

/** A fallback client's switch, as {@link TurnReader.read} hands it on. */
interface SwitchNote {
  readonly modelSwitch: ModelSwitch;
}

/** A switch as journaled: four strings, else the client's fault (the turn is discarded). */
function checkSwitch(raw: ModelSwitch | undefined): ModelSwitch {
  const { from, to, reason, message } = (raw ?? {}) as Partial<Record<keyof ModelSwitch, unknown>>;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof reason !== 'string' || typeof message !== 'string') {
    throw new HarnessError('model_error', 'the model client sent a model_switch without from, to, reason and message');
  }
  return { from, to, reason, message };
}

/** A reasoning part as journaled; a malformed one is the client's fault (the turn is discarded). */
function checkReasoning(raw: unknown): ReasoningContent {
  const part = reasoningPart(raw);
  if (typeof part === 'string') throw new HarnessError('model_error', `the model sent a bad reasoning part: ${part}`);
  return part;
}

/** A well-formed, non-empty tool-call delta, else undefined (a hint: a bad one is skipped, not fatal). */
function toolCallDelta(delta: ToolCallDelta | undefined): ToolCallDelta | undefined {
  if (delta === undefined || delta === null) return undefined;
  const { callId, name, argumentsDelta } = delta;
  if (typeof callId !== 'string' || typeof name !== 'string' || typeof argumentsDelta !== 'string') return undefined;
  return argumentsDelta === '' ? undefined : { callId, name, argumentsDelta };
}

function isSyncIterable(events: object): events is Iterable<StreamEvent> {
  return !(Symbol.asyncIterator in events) && Symbol.iterator in events;
}

/**
 * Reads one model stream to its end (or `message_complete`), calling `onText` for each text
 * delta and `onToolDelta` for each tool-call delta (awaited: backpressure; `undefined` when
 * there is nothing to wait for), and `onSwitch` for each switch of a fallback client. Throws on
 * an `error` event; the caller discards the turn.
 */
export async function readModelStream(
  events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>,
  onText: (delta: string) => Promise<void> | undefined,
  onToolDelta: (delta: ToolCallDelta) => Promise<void> | undefined = () => undefined,
  onReasoning: (delta: string) => Promise<void> | undefined = () => undefined,
  onSwitch: (modelSwitch: ModelSwitch) => void = () => {},
): Promise<StreamedTurn> {
  const reader = new TurnReader();
  // Not async: an async wrapper would add a promise (and two microtasks) per delta.
  const onDelta = (delta: string | ToolCallDelta | ReasoningDelta | SwitchNote): Promise<void> | undefined => {
    if (typeof delta === 'string') return onText(delta);
    if ('reasoning' in delta) return onReasoning(delta.reasoning);
    if ('modelSwitch' in delta) {
      onSwitch(delta.modelSwitch);
      return undefined;
    }
    return onToolDelta(delta);
  };
  if (isSyncIterable(events)) {
    // A client that has the whole turn at hand (a script, a cache): no promise per event. An
    // element that is a promise is awaited, as `for await` would.
    for (const item of events) {
      const event = isPromiseLike(item) ? await item : item;
      const delta = reader.read(event);
      if (delta !== undefined) {
        const delivered = onDelta(delta);
        if (delivered !== undefined) await delivered;
      }
      if (reader.complete) break;
    }
  } else {
    for await (const event of events) {
      const delta = reader.read(event);
      if (delta !== undefined) {
        const delivered = onDelta(delta);
        if (delivered !== undefined) await delivered;
      }
      if (reader.complete) break;
    }
  }
  return reader.turn();
}
