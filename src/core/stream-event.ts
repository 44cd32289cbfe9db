import type { ReasoningContent, ToolCall } from './messages.js';
import type { TokenUsage } from './usage.js';

/** Kinds of chunk a model client yields. */
export const StreamEventType = {
  TEXT_DELTA: 'text_delta',
  TOOL_CALL_BEGIN: 'tool_call_begin',
  TOOL_CALL_DELTA: 'tool_call_delta',
  TOOL_CALL_COMPLETE: 'tool_call_complete',
  REASONING_DELTA: 'reasoning_delta',
  REASONING_COMPLETE: 'reasoning_complete',
  MESSAGE_COMPLETE: 'message_complete',
  ERROR: 'error',
  MODEL_SWITCH: 'model_switch',
} as const;

/** One of the {@link StreamEventType} values. */
export type StreamEventType = (typeof StreamEventType)[keyof typeof StreamEventType];

/** A piece of streamed assistant text. */
export interface TextDelta {
  /** The text. */
  readonly content: string;
}

/** A piece of a tool call's arguments, as the model streams them. */
export interface ToolCallDelta {
  /** The call's id (as its `tool_call_complete` will carry it). */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** The next piece of the arguments' JSON text. */
  readonly argumentsDelta: string;
}

/** Why the model stopped, normalised across providers. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

/** A provider-side failure reported in the stream. */
export interface StreamError {
  /** What went wrong, in the provider's words. */
  readonly message: string;
  /** Provider or transport code, when there is one (HTTP status, error type). */
  readonly code?: string;
}

/**
 * A fallback client left one model for the next before the turn's first delta: the agent
 * journals it (a `model_switch` entry). `from` and `to` name the models (or providers).
 */
export interface ModelSwitch {
  /** The model that failed. */
  readonly from: string;
  /** The model tried next. */
  readonly to: string;
  /** Why: `rate_limit`, `overloaded`, `server`, `context_length`, `timeout` or `connection`. */
  readonly reason: string;
  /** The failed model's error, one line. */
  readonly message: string;
}

/**
 * One chunk of a model response, as a model client yields it.
 * The agent reads `text_delta`, `tool_call_delta`, `tool_call_complete`, `message_complete` and
 * `error`; `tool_call_begin` is a progress hint it ignores (`tool_call_begin`, not
 * `tool_call_start`: that name is the agent's announcement that a tool starts). A
 * `tool_call_delta` is passed on as the agent's `tool_call_delta` event; the call itself is
 * what its `tool_call_complete` carries.
 */
export interface StreamEvent {
  /** What kind of chunk this is. */
  readonly type: StreamEventType;
  /** With `text_delta`. A bare string is accepted too. */
  readonly textDelta?: TextDelta | string;
  /** With `tool_call_complete` (and, partially, the begin/delta hints). */
  readonly toolCall?: ToolCall;
  /** With `reasoning_delta`: a piece of the reasoning text or summary, as it streams (not journaled). */
  readonly reasoningDelta?: string;
  /** With `reasoning_complete`: one finished reasoning part, journaled with the turn's message. */
  readonly reasoning?: ReasoningContent;
  /** With `tool_call_delta`: a piece of a call's arguments. */
  readonly toolCallDelta?: ToolCallDelta;
  /** With `message_complete`, when the provider reported usage. */
  readonly usage?: TokenUsage;
  /** With `message_complete`. */
  readonly finishReason?: FinishReason;
  /**
   * With `message_complete`: the model that answered, when the client is a chain of several
   * (a fallback client): usage is journaled with it, and priced at its rates.
   */
  readonly model?: string;
  /** With `model_switch`. */
  readonly modelSwitch?: ModelSwitch;
  /** With `error`. A bare string is accepted too. */
  readonly error?: StreamError | string;
}

/** Factories for {@link StreamEvent}s, handy in scripts and adapters. */
export const StreamEvent = {
  /** A text chunk. */
  textDelta(content: string): StreamEvent {
    return { type: StreamEventType.TEXT_DELTA, textDelta: { content } };
  },
  /** A piece of a tool call's arguments, as it streams. */
  toolCallDelta(delta: ToolCallDelta): StreamEvent {
    return { type: StreamEventType.TOOL_CALL_DELTA, toolCallDelta: delta };
  },
  /** A piece of reasoning text or summary, as it streams. */
  reasoningDelta(content: string): StreamEvent {
    return { type: StreamEventType.REASONING_DELTA, reasoningDelta: content };
  },
  /** One finished reasoning part (its signature or encrypted content included). */
  reasoningComplete(reasoning: ReasoningContent): StreamEvent {
    return { type: StreamEventType.REASONING_COMPLETE, reasoning };
  },
  /** A fully streamed tool call. */
  toolCallComplete(toolCall: ToolCall): StreamEvent {
    return { type: StreamEventType.TOOL_CALL_COMPLETE, toolCall };
  },
  /** The end of the turn, with usage when known. */
  messageComplete(usage?: TokenUsage, finishReason?: FinishReason): StreamEvent {
    return {
      type: StreamEventType.MESSAGE_COMPLETE,
      ...(usage ? { usage } : {}),
      ...(finishReason ? { finishReason } : {}),
    };
  },
  /** A fallback client's switch to the next model, before the turn's first delta. */
  modelSwitch(modelSwitch: ModelSwitch): StreamEvent {
    return { type: StreamEventType.MODEL_SWITCH, modelSwitch };
  },
  /** A provider error in the stream; the agent ends the run with `model_error`. */
  error(message: string, code?: string): StreamEvent {
    return { type: StreamEventType.ERROR, error: code === undefined ? { message } : { message, code } };
  },
} as const;

/** The text of a `text_delta` event, whichever form it came in. */
export function textOf(delta: TextDelta | string | undefined): string {
  if (delta === undefined || delta === null) return '';
  if (typeof delta === 'string') return delta;
  const { content, text } = delta as { content?: unknown; text?: unknown };
  if (typeof content === 'string') return content;
  return typeof text === 'string' ? text : '';
}
