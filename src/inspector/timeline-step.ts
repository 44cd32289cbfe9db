import type { TokenUsage } from '../core/usage.js';

/** What a timeline step shows. */
export type TimelineStepKind =
  | 'user'
  | 'harness_note'
  | 'turn'
  | 'model_text'
  | 'tool_call'
  | 'transition'
  | 'budget_warning'
  | 'answer'
  | 'error'
  | 'reset'
  /** The context was compacted before a request (old tool outputs elided, or turns summarised). */
  | 'compaction'
  /** A call waits for approval, or was approved or denied. */
  | 'approval'
  /** An event sent to an inspected XState actor (WebSocket inspection). */
  | 'event'
  /** An inspected actor started. */
  | 'actor'
  /** The conversation was handed to another agent. */
  | 'handoff'
  /** A fallback client left a failing model for the next one. */
  | 'model_switch'
  /** A guardrail's verdict on the input, the final answer or a tool result. */
  | 'guardrail';

/** Where a tool call is: announced, running, or settled with a result. */
export type ToolCallStatus = 'pending' | 'running' | 'ok' | 'error';

/**
 * An image or a file of a user message or a tool result, as the timeline shows it (SPEC §15).
 * Every string is untrusted content: the page draws an image only from `data` with a media type
 * of the allow-list, and never loads a `url`.
 */
export interface TimelineAttachment {
  readonly type: 'image' | 'file';
  readonly mediaType: string;
  /** Its size in bytes, when its data is in the journal. */
  readonly bytes?: number;
  /** An image's bytes, base64: present only for an allow-listed image type (PNG, JPEG, GIF, WebP). */
  readonly data?: string;
  /** Where the provider fetches it, shown as text only. */
  readonly url?: string;
  /** A file's name. */
  readonly name?: string;
}

/** A tool call as the timeline shows it. Every string is untrusted content. */
export interface TimelineToolCall {
  readonly callId: string;
  readonly name: string;
  /** The arguments as JSON text (or the raw string the model sent). */
  readonly arguments: string;
  readonly status: ToolCallStatus;
  /** The observation the model received (or the tool's output while it is not yet recorded). */
  readonly result?: string;
  /** The result's images and files, when it has any. */
  readonly attachments?: readonly TimelineAttachment[];
  /** Where the tool came from, when not built in: `mcp:<server>` for an MCP server's tool. */
  readonly source?: string;
  /** How long the tool ran, when known (live runs, or a timing sidecar). */
  readonly durationMs?: number;
  /** The session of the child agent the call runs (an `agentTool`). */
  readonly childSessionId?: string;
  /** The child agent's own timeline, when its journal is known (expandable under the call). */
  readonly children?: readonly TimelineStep[];
}

/**
 * One reasoning part of a model turn as the timeline shows it (folded under the turn's text):
 * its summary, else its text; `redacted` for a provider's redacted (encrypted-only) reasoning,
 * `encrypted` for a part that carries neither summary nor text. Every string is untrusted content.
 */
export interface TimelineReasoning {
  /** The provider that made the part. */
  readonly provider: string;
  /** What the text is. */
  readonly shows: 'summary' | 'text' | 'redacted' | 'encrypted';
  /** The summary or text; empty for `redacted` and `encrypted`. */
  readonly text: string;
}

/**
 * The reasoning parts of one provider a turn's request left out (its `turn_start`'s
 * `droppedReasoning`: they go back only to the provider that made them). Untrusted content.
 */
export interface TimelineDroppedReasoning {
  /** The provider that made the parts. */
  readonly provider: string;
  /** How many of its parts the request left out. */
  readonly parts: number;
}

/**
 * One step of the inspector's timeline. Steps are keyed by `id`: a later update of the same
 * step (a tool call settling, streamed text growing) replaces it in place.
 */
export interface TimelineStep {
  /** Stable key of the step. */
  readonly id: string;
  /** Position in the timeline, from 0, in order of first appearance. */
  readonly index: number;
  readonly kind: TimelineStepKind;
  /** The machine state this step happened in (null outside a run). */
  readonly state: string | null;
  /** The transition that led here, for `transition` steps. */
  readonly from?: string;
  /** The event that caused a `transition` step. */
  readonly event?: string;
  /** A one-line headline. */
  readonly title: string;
  /** Body text (untrusted: model text, answers, error messages). */
  readonly text?: string;
  /** A user message's images and files, when it has any. */
  readonly attachments?: readonly TimelineAttachment[];
  readonly tool?: TimelineToolCall;
  /** The model turn's reasoning, for `model_text` and `answer` steps of a turn that reasoned. */
  readonly reasoning?: readonly TimelineReasoning[];
  /**
   * On a `turn` step of a live run, the reasoning streamed so far (its `reasoning_delta`s), until
   * the journal records the turn's message with its finished parts (untrusted).
   */
  readonly streamedReasoning?: string;
  /**
   * On a `turn` step, the reasoning its request left out, by provider in order of first note;
   * absent when it left out none.
   */
  readonly droppedReasoning?: readonly TimelineDroppedReasoning[];
  /** The model request this step belongs to (0 before the first). */
  readonly turn: number;
  /** Usage of the run so far, summed over requests. */
  readonly usage: TokenUsage;
  /** Cost of `usage` at the budget's rates. */
  readonly cost: number;
  /**
   * How many journal entries lead up to this step, the entry that made it included: a fork "here"
   * keeps that many (`session.fork({ at: entries })`). Absent on steps that come from no journal
   * (WebSocket inspection).
   */
  readonly entries?: number;
}
