import type { StopReason } from './agent-event.js';
import type { Compaction } from './compaction.js';
import type { MessageContent } from './content-parts.js';
import type { GuardrailVerdict } from './guardrail.js';
import type { JsonObject, JsonValue, ReasoningContent, ToolCall } from './messages.js';
import type { TokenUsage } from './usage.js';

/**
 * A reasoning part left out of a request (SPEC §15): it goes back only to the provider that made
 * it, and the request's client speaks for another one, or names none.
 */
export interface DroppedReasoning {
  /** The provider that made the part. */
  readonly provider: string;
  /** The index of its assistant message in the request's messages (the context, system message included). */
  readonly message: number;
  /** Its index in that message's reasoning. */
  readonly part: number;
  /** Why it was left out: it was made by another provider than the client's. */
  readonly reason: 'other_provider';
  /** The provider of the request's client; absent when the client names none. */
  readonly client?: string;
}

/** A model request began (one turn = one request). */
export interface TurnStartEntry {
  readonly type: 'turn_start';
  /**
   * The reasoning parts this request left out, one note per part (journal version 5); absent
   * when it left out none.
   */
  readonly droppedReasoning?: readonly DroppedReasoning[];
}

/** A user message joined the context (`author: 'harness'` for harness-written notes). */
export interface UserMessageEntry {
  readonly type: 'user_message';
  /** A string, or content parts (journal version 6). */
  readonly content: MessageContent;
  readonly author?: 'harness';
}

/** A model turn that asked for tools (a final answer is an {@link AgentEndEntry}). */
export interface AssistantMessageEntry {
  readonly type: 'assistant_message';
  readonly content: string;
  readonly toolCalls?: readonly ToolCall[];
  /** The turn's reasoning parts, as the provider returned them (journal version 5). */
  readonly reasoning?: readonly ReasoningContent[];
}

/**
 * Write-ahead record: the tool call is about to run (journaled before it starts, so a crash
 * can tell a call that never started from one that is in doubt).
 */
export interface ToolStartedEntry {
  readonly type: 'tool_started';
  readonly callId: string;
  /** Where the tool came from, when not built in (`mcp:<server>` for an MCP server's tool). */
  readonly source?: string;
  /**
   * The session of the child agent this call runs (an `agentTool`), in the same store as this
   * one (journal version 4).
   */
  readonly childSessionId?: string;
}

/** A call that the tool policy says to `ask` about waits for a decision (journal version 3). */
export interface ApprovalRequestEntry {
  readonly type: 'approval_request';
  readonly callId: string;
  /** The rule that asked (a policy key, a function); absent in journals before version 6. */
  readonly rule?: string;
}

/** A decision on a call that asked: approved, or denied with a reason (journal version 3). */
export interface ApprovalDecisionEntry {
  readonly type: 'approval_decision';
  readonly callId: string;
  readonly approved: boolean;
  /** Why it was denied. */
  readonly reason?: string;
  /** The policy function that decided (journal version 6); absent for a person's decision. */
  readonly rule?: string;
  /** An approval's edited arguments (journal version 6); the `assistant_message` keeps the model's. */
  readonly arguments?: JsonObject;
}

/** One tool observation, journaled as its call settles (the context keeps call order). */
export interface ToolResultEntry {
  readonly type: 'tool_result';
  readonly callId: string;
  /** A string, or content parts (journal version 6). */
  readonly content: MessageContent;
  /**
   * Usage the call spent on the parent's behalf (a child agent's requests), counted into this
   * session's usage with the result itself, so a crash can neither lose nor double it (journal
   * version 4).
   */
  readonly usage?: TokenUsage;
}

/** Usage reported for one request. */
export interface UsageEntry {
  readonly type: 'usage';
  readonly usage: TokenUsage;
  /**
   * The model that answered, when a fallback chain named it (journal version 6): its rates price
   * this usage.
   */
  readonly model?: string;
}

/**
 * A fallback client left model `from` for `to` before the turn's answer started, for `reason`
 * (`rate_limit`, `overloaded`, `server`, `context_length`, `timeout`, `connection`) with the
 * failed model's error `message` (journal version 6). It changes no message or usage.
 */
export interface ModelSwitchEntry {
  readonly type: 'model_switch';
  readonly from: string;
  readonly to: string;
  readonly reason: string;
  readonly message: string;
}

/** The session was cleared. */
export interface ResetEntry {
  readonly type: 'reset';
}

/** A machine transition between two states of the agent machine. */
export interface TransitionEntry {
  readonly type: 'transition';
  readonly from: string;
  readonly to: string;
  /** The type of the event that caused it. */
  readonly event: string;
}

/** A run ended with this final answer; it joins the messages when the conversation goes on. */
export interface AgentEndEntry {
  readonly type: 'agent_end';
  readonly response: string;
  /** The parsed structured answer, when the run asked for one (JSON). */
  readonly output?: JsonValue;
  /** The final turn's reasoning parts (journal version 5). */
  readonly reasoning?: readonly ReasoningContent[];
}

/** A run ended without a final answer. */
export interface AgentErrorEntry {
  readonly type: 'agent_error';
  readonly reason: StopReason;
  readonly message: string;
}

/** A soft budget limit was crossed and tools were withheld. */
export interface BudgetWarningEntry {
  readonly type: 'budget_warning';
  readonly budget: string;
  readonly used: number;
}

/**
 * The context was compacted before a request (journal version 4): `messages[from, to)` were
 * replaced by `messages` (old tool outputs elided, or turns summarised). Replay applies it, so
 * the rebuilt context is the one the model saw.
 */
export interface CompactionEntry extends Compaction {
  readonly type: 'compaction';
}

/**
 * The conversation was handed to another agent: the next requests use its instructions (the
 * system message) and its tools (journal version 4).
 */
export interface HandoffEntry {
  readonly type: 'handoff';
  /** The agent that handed over (`main` for the session's own). */
  readonly from: string;
  /** The agent that takes over. */
  readonly to: string;
  /** Its instructions: the system message from now on. */
  readonly instructions: string;
}

/**
 * A guardrail's verdict (journal version 6): on the input, on the final answer, or on one call's
 * result (`callId`). A replaced value is not here: the entry it replaced in (`tool_result`,
 * `agent_end`) carries the replacement, and the original is never journaled.
 */
export interface GuardrailEntry extends GuardrailVerdict {
  readonly type: 'guardrail';
}

/** One append-only journal record. Plain JSON. */
export type JournalEntry =
  | TurnStartEntry
  | UserMessageEntry
  | AssistantMessageEntry
  | ToolStartedEntry
  | ApprovalRequestEntry
  | ApprovalDecisionEntry
  | ToolResultEntry
  | UsageEntry
  | ModelSwitchEntry
  | ResetEntry
  | TransitionEntry
  | AgentEndEntry
  | AgentErrorEntry
  | BudgetWarningEntry
  | CompactionEntry
  | HandoffEntry
  | GuardrailEntry;

/** The `type` of a {@link JournalEntry}. */
export type JournalEntryType = JournalEntry['type'];
