import type { Permission, PolicyVerdict } from '../core/approval-types.js';
import type { ReasoningContent, ToolCall } from '../core/messages.js';
import type { FinishReason } from '../core/stream-event.js';
import type { TokenUsage } from '../core/usage.js';

/** What the agent found checking a final answer against the run's output schema. */
export type OutputCheck =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string };

/** A completed model turn, as the machine receives it. */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** For each call, whether it may run concurrently with its safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
  /** For each call, what the tool policy says; absent when every call is allowed. */
  readonly permissions?: readonly Permission[];
  /** For each call, with `permissions`: the rule that said it, a denial's reason, whether a function decided. */
  readonly verdicts?: readonly PolicyVerdict[];
  readonly usage: TokenUsage;
  readonly finishReason?: FinishReason;
  /** The model that answered, when the client named it in the stream (a fallback chain does). */
  readonly model?: string;
  /** The turn's reasoning parts, journaled with its message; absent when it had none. */
  readonly reasoning?: readonly ReasoningContent[];
  /** Milliseconds since the run started, when the turn completed. */
  readonly elapsedMs: number;
  /** A final answer of a run that asked for structured output: what checking it found. */
  readonly outputCheck?: OutputCheck;
  /**
   * The context's size after this turn, in tokens: the request's reported prompt tokens plus
   * the answer's, else an estimate. Only measured when the context has a size limit.
   */
  readonly contextTokens?: number;
  /** Provider tokens per estimated token, as measured on this turn (with `contextTokens`), bounded. */
  readonly tokenScale?: number;
  /** The ratio the provider's report gave, when it was out of bounds and `tokenScale` is the bound. */
  readonly reportedTokenScale?: number;
}

/** What a stream adds up to, before the agent annotates it. */
export type StreamedTurn = Omit<
  ModelTurn,
  | 'concurrencySafe'
  | 'permissions'
  | 'verdicts'
  | 'elapsedMs'
  | 'outputCheck'
  | 'contextTokens'
  | 'tokenScale'
  | 'reportedTokenScale'
>;
