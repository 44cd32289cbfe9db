import type { Budget } from '../config/budget.js';
import type { StopReason } from '../core/agent-event.js';
import type { ApprovalDecision, ApproveEvent, DenyEvent, Permission, SuspendEvent } from '../core/approval-types.js';
import type { Compaction } from '../core/compaction.js';
import type { MessageContent } from '../core/content-parts.js';
import type { GuardrailStage, GuardrailVerdict } from '../core/guardrail.js';
import type { ToolCall } from '../core/messages.js';
import type { ToolResult } from '../core/tool-result.js';
import type { TokenUsage } from '../core/usage.js';
import type { InvalidCalls } from './invalid-calls.js';
import type { ModelTurn } from './model-turn.js';

/** The states of the agent machine. */
export type AgentStateName =
  | 'awaitingModel'
  | 'executingTools'
  | 'awaitingApproval'
  | 'observing'
  | 'budgetCheck'
  | 'compacting'
  | 'guardingOutput'
  | 'done'
  | 'error';

/** What the machine is started with. */
export interface AgentMachineInput {
  /** Limits of this run (turns, cost and tokens count from the run's start). */
  readonly budget: Budget;
  /** At most this many concurrency-safe calls of one batch run at once (default 8). */
  readonly maxParallelTools?: number;
  /** A run ends with `invalid_tool_calls` once one tool has this many invalid calls in a row (default 3). */
  readonly maxInvalidToolCalls?: number;
  /** Invalid calls counted so far in the run (a resumed run continues its count). */
  readonly invalidCalls?: InvalidCalls;
  /**
   * A final answer that fails the run's output schema (`run(input, { output })`) is sent back
   * this many times at most, each a turn, before the run ends with `output_invalid` (default 2).
   */
  readonly outputRetries?: number;
  /** Resume an interrupted run: these recorded calls have no result yet; run them first. */
  readonly resume?: PendingCalls;
  /** Compact the context before a request whose context would exceed this many tokens (`Config.context.maxTokens`). */
  readonly contextLimit?: number;
  /** The context's size when the run starts, in tokens (estimated). */
  readonly contextTokens?: number;
  /** Provider tokens per estimated token, as an earlier run measured it (default 1). */
  readonly tokenScale?: number;
  /** The agent in charge of the conversation (after a handoff); `main` by default. */
  readonly agent?: string;
  /**
   * The run cannot go on as asked (a `run()` option the agent could not use): it ends at once
   * with this stop, before any request.
   */
  readonly refusal?: StopInfo;
  /**
   * A resumed run whose crashed run was ending with this stop (a journaled tripwire) while
   * calls were still owed: they are answered without running (and unchecked), then the run ends
   * with it, before any request.
   */
  readonly ending?: StopInfo;
  /** A sub-agent's run: the live spend of the agents above it, read before each request. */
  readonly tree?: TreeBudget;
  /** Which stages have guardrails, and whether the input still needs its check (none by default). */
  readonly guardrails?: GuardrailStages;
}

/** Which guardrail stages the run has (`Config.guardrails`), as the machine decides on them. */
export interface GuardrailStages {
  readonly input: boolean;
  readonly output: boolean;
  readonly toolResult: boolean;
  /** The user's message has no verdict yet: its check runs beside the next model request. */
  readonly inputPending: boolean;
}

/** The guardrails' part of the context. */
export interface GuardrailGate extends GuardrailStages {
  /** The input's check is running (started with the request in flight). */
  readonly inputChecking: boolean;
  /** A model turn that came before the input's verdict: held until the input passed. */
  readonly heldTurn: ModelTurn | undefined;
  /** Calls of the turn whose settled result is being checked (`toolResult`), by index. */
  readonly checking: readonly number[];
}

/**
 * The budgets of the agents a sub-agent runs under, as their tree has spent them so far (read
 * live: sibling and nested sub-agents spend too while this run goes on).
 */
export interface TreeBudget {
  /** The first of their hard limits this run's next request would break, or null. */
  stop(): StopInfo | null;
}

/** Tool calls to run without asking the model first (see {@link AgentMachineInput.resume}). */
export interface PendingCalls {
  readonly calls: readonly ToolCall[];
  /** Per call: may it run concurrently with safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
  /**
   * Per call: a result to answer it with instead of running it (a call that started before a
   * crash, is in doubt, and may not run twice: `Error: interrupted: …`).
   */
  readonly answers?: readonly (ToolResult | undefined)[];
  /** Per call: what the tool policy says now (all `allow` when absent). A resumed run re-checks it. */
  readonly permissions?: readonly Permission[];
  /**
   * Per call: a decision already given (journaled before a suspend, or `resume({ approvals })`),
   * or the reason of a `deny` (a policy function's).
   */
  readonly decisions?: readonly (ApprovalDecision | undefined)[];
  /** Per call: the rule that gave its permission, when one did (for the approval request). */
  readonly rules?: readonly (string | undefined)[];
}

/** A stop that the run is heading for or ended with. */
export interface StopInfo {
  readonly reason: StopReason;
  readonly message: string;
}

/** What a run may use, fixed when it starts. */
export interface RunLimits {
  readonly budget: Budget;
  /** At most this many calls of a batch of concurrency-safe calls run at once. */
  readonly maxParallelTools: number;
  /** A run ends with `invalid_tool_calls` once one tool has this many invalid calls in a row. */
  readonly maxInvalidToolCalls: number;
  /** Failing final answers that may be sent back (structured output). */
  readonly outputRetries: number;
  /** Before a request whose context would exceed this many tokens, the context is compacted; none when undefined. */
  readonly contextLimit: number | undefined;
  /** A sub-agent's run: the budgets of the agents above it (none for a top-level run). */
  readonly tree: TreeBudget | undefined;
}

/** The current turn's tool calls and where they stand; every tool step replaces it whole. */
export interface ToolBatch {
  /** The calls, in the model's order. */
  readonly calls: readonly ToolCall[];
  /** Per call: may it run concurrently with safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
  /** Per call of a resumed run: the answer to give instead of running it (see {@link PendingCalls.answers}). */
  readonly answers: readonly (ToolResult | undefined)[];
  /**
   * Per call: what the tool policy says (empty when every call is allowed). Calls that `ask`
   * come after the allowed ones in `calls`: they run, and report, once decided.
   */
  readonly permissions: readonly Permission[];
  /** Per call: the decision on it, for a call that asked (or the policy's `deny`). */
  readonly decisions: readonly (ApprovalDecision | undefined)[];
  /** Per call: the rule that gave its permission (empty when every call is allowed). */
  readonly rules: readonly (string | undefined)[];
  /** Per call: its result once settled. */
  readonly results: readonly (ToolResult | undefined)[];
  /** How many calls have settled. */
  readonly settled: number;
  /** How many results, from the first call on, were reported (`tool_call_complete`) in call order. */
  readonly reported: number;
  /** Index of the next call to start. */
  readonly nextToStart: number;
  /** Calls started and not yet settled. */
  readonly running: number;
  /**
   * The waiting calls were asked about (`requestApproval`): once, when the turn first waits
   * only for decisions, after the calls that needed none have run.
   */
  readonly asked: boolean;
}

/**
 * The machine's context: small, plain, and everything its guards decide on.
 *
 * Kept to fewer than 20 keys (`test/machines/context-shape.test.ts`): XState copies the context
 * with `Object.assign({}, context, update)` on every `assign`, and V8 turns an object that gets 20
 * or more keys that way into a hash table, which slows every step of the loop.
 * Cost: `bench/cases/turn-cost.ts`, docs/performance.md.
 * Fields that change together are grouped instead ({@link RunLimits}, {@link ToolBatch}).
 */
export interface AgentContext {
  /** What the run may use. */
  readonly limits: RunLimits;
  /** Per tool name: invalid calls since a call to it last succeeded (counted in call order). */
  readonly invalidCalls: InvalidCalls;
  /** Failing final answers sent back so far. */
  readonly outputRetriesUsed: number;
  /** The parsed structured answer (in `done`, when the run asked for one). */
  readonly output: unknown;
  /** Model turns completed in this run (a request is counted when its answer arrives). */
  readonly turns: number;
  /** Usage of this run. */
  readonly usage: TokenUsage;
  /** Milliseconds since the run started, as last reported by an actor. */
  readonly elapsedMs: number;
  /** The current turn's tool calls and where they stand. */
  readonly tools: ToolBatch;
  /** True until the pending calls of a resumed run are handed to `executingTools`. */
  readonly resuming: boolean;
  /** Set once a soft limit warned; tools are then withheld. */
  readonly toolsWithheld: boolean;
  /** An abort or time-out waiting for in-flight tools to settle. */
  readonly aborting: StopInfo | undefined;
  /** Why the run stopped (in `error`). */
  readonly stop: StopInfo | undefined;
  /** The final answer (in `done`). */
  readonly response: string | undefined;
  /**
   * The context's size in tokens as of now (kept only with a `contextLimit`): the last turn's
   * reported or estimated size, plus the estimated size of the results since.
   */
  readonly contextTokens: number;
  /** Provider tokens per estimated token, from the last turn that reported usage (1 until then), bounded. */
  readonly tokenScale: number;
  /**
   * The ratio the last measured turn's report gave, when it was out of bounds and `tokenScale`
   * is the bound instead; noted on the next compaction's journal entry.
   */
  readonly reportedTokenScale: number | undefined;
  /** The agent in charge of the conversation: `main`, or the last one handed to (`HANDOFF`). */
  readonly agent: string;
  /** The guardrail stages the run has, and where the input's check stands. */
  readonly guardrails: GuardrailGate;
}

/**
 * Stops the run: `agent.abort()` sends `aborted`, the wall-clock timer `time_budget`, a failed
 * store `store_error`, and the machine itself `guardrail` when a tool result's guardrail trips.
 */
export interface AbortEvent {
  readonly type: 'ABORT';
  readonly reason: 'aborted' | 'time_budget' | 'store_error' | 'guardrail';
  readonly message: string;
}

/** A tool actor finished (success or error). */
export interface ToolSettledEvent {
  readonly type: 'TOOL_SETTLED';
  readonly index: number;
  readonly result: ToolResult;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
  /** Usage the call spent for the run (a child agent's): counted into the run's budgets. */
  readonly usage?: TokenUsage;
  /** The result passed the run's `toolResult` guardrails (or is their replacement). */
  readonly checked?: true;
}

/**
 * The `checkGuardrails` effect's answer: the verdicts of one stage's guardrails on one value, in
 * order, up to the first that stops the run.
 */
export interface GuardrailCheckedEvent {
  readonly type: 'GUARDRAIL_CHECKED';
  readonly stage: GuardrailStage;
  readonly verdicts: readonly GuardrailVerdict[];
  /** The value after every replacement (the checked value when none replaced it). */
  readonly value: MessageContent;
  /** What the guardrails' own model requests used (an LLM judge); counted into the budgets. */
  readonly usage: TokenUsage;
  /** `toolResult`: the call's settlement whose result was checked. */
  readonly settled?: ToolSettledEvent;
}

/** Parameters of the `checkGuardrails` effect: which stage, on which value. */
export interface CheckGuardrailsParams {
  readonly stage: GuardrailStage;
  /** The value to check; the `input` stage checks the session's last user message. */
  readonly value?: MessageContent;
  /** Model turns completed so far, for the guardrail's context. */
  readonly turn: number;
  /** `toolResult`: the call whose settlement is checked. */
  readonly call?: ToolCall;
  readonly settled?: ToolSettledEvent;
}

/**
 * A running call (a handoff tool) hands the conversation to another agent: the next requests
 * use its instructions and tools. Sent by the call's actor just before its `TOOL_SETTLED`.
 */
export interface HandoffEvent {
  readonly type: 'HANDOFF';
  /** The call that hands off. */
  readonly index: number;
  /** The agent taking over. */
  readonly to: string;
  /** Its instructions (the system message from now on). */
  readonly instructions: string;
}

/** Parameters of the effect that journals a handoff. */
export interface HandoffParams {
  readonly from: string;
  readonly to: string;
  readonly instructions: string;
}

/** The model request started on entering `awaitingModel` completed a turn. */
export interface ModelTurnEvent {
  readonly type: 'MODEL_TURN';
  readonly turn: ModelTurn;
}

/** The model request failed (the stream reported an error, or the client threw). */
export interface ModelErrorEvent {
  readonly type: 'MODEL_ERROR';
  /** Why, for the run's `agent_error`. */
  readonly message: string;
}

/**
 * Before the model request, a tool source's refresh failed (an MCP server whose new tool list
 * clashes with the registry): the tools to offer are unknown, so no request was sent.
 */
export interface ToolSourceErrorEvent {
  readonly type: 'TOOL_SOURCE_ERROR';
  /** Why, naming the source and the tool, for the run's `agent_error`. */
  readonly message: string;
}

/** The compaction started on entering `compacting` finished. */
export interface CompactedEvent {
  readonly type: 'COMPACTED';
  /** What was replaced, and by what; undefined when nothing old enough was left to compact. */
  readonly compaction: Compaction | undefined;
  /** Usage of the summary request (zero for elision): it counts against the budgets. */
  readonly usage: TokenUsage;
  /** The model that wrote the summary, when a fallback chain named it (journaled on its usage). */
  readonly model?: string;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
}

/** Something inside the loop broke (an effect threw): the run ends with `internal_error`. */
export interface InternalErrorEvent {
  readonly type: 'INTERNAL_ERROR';
  readonly message: string;
}

/** Events the machine accepts: from the model request, its tool actors, and from outside. */
export type AgentMachineEvent =
  | ModelTurnEvent
  | ModelErrorEvent
  | ToolSourceErrorEvent
  | CompactedEvent
  | ToolSettledEvent
  | GuardrailCheckedEvent
  | HandoffEvent
  | AbortEvent
  | InternalErrorEvent
  | ApproveEvent
  | DenyEvent
  | SuspendEvent;

/** Sent to a running tool actor: abort its call (its own AbortSignal). */
export interface CancelToolEvent {
  readonly type: 'CANCEL';
  /** Why, as the tool's signal's reason. */
  readonly reason: string;
}

/** Parameters of the `requestModel` effect. */
export interface ModelRequestParams {
  /** True once a soft limit withheld tools: send no tool definitions. */
  readonly toolsWithheld: boolean;
}

/** Parameters of the `compactContext` effect. */
export interface CompactParams {
  /** The context's size now, in tokens. */
  readonly tokens: number;
  /** Provider tokens per estimated token (see {@link AgentContext.tokenScale}): scales estimated savings. */
  readonly tokenScale: number;
  /** See {@link AgentContext.reportedTokenScale}: the ratio `tokenScale` bounds, if it does. */
  readonly reportedTokenScale?: number;
}

/** Input of one tool actor. */
export interface ToolActorInput {
  readonly call: ToolCall;
  readonly index: number;
  /** Answer the call with this instead of running it (an in-doubt call on resume). */
  readonly answer?: ToolResult;
}

/** Parameters of the effects that record and report one turn's tool results. */
export interface ToolResultParams {
  /** The call that settled. */
  readonly call: ToolCall;
  readonly result: ToolResult;
  /** Usage the call spent for the run (a child agent's), journaled with its result. */
  readonly usage?: TokenUsage;
}

/** Parameters of the effect that sends a failing structured answer back to the model. */
export interface RejectOutputParams {
  readonly turn: ModelTurn;
  /** What the check found (`Invalid output: …`). */
  readonly problem: string;
}

/** Parameters of the effect that reports results in call order. */
export interface ReportParams {
  /** The turn's calls. */
  readonly calls: readonly ToolCall[];
  readonly results: readonly (ToolResult | undefined)[];
  /** Report calls `from` (inclusive) to `to` (exclusive). */
  readonly from: number;
  readonly to: number;
}

export type {
  ApprovalDecision,
  ApprovalRequestParams,
  ApproveEvent,
  DecisionParams,
  DenyEvent,
  Permission,
  SuspendEvent,
} from '../core/approval-types.js';
export type { ModelTurn };
