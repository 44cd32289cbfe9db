import type { ModelTurn } from '../agent/model-turn.js';
import type { Budget } from '../config/budget.js';
import type { StopReason } from '../core/agent-event.js';
import type { ToolCall } from '../core/messages.js';
import type { TokenUsage } from '../core/usage.js';
import type { ToolResult } from '../tools/tool-result.js';

/** The states of the agent machine. */
export type AgentStateName = 'awaitingModel' | 'executingTools' | 'observing' | 'budgetCheck' | 'done' | 'error';

/** What the machine is started with. */
export interface AgentMachineInput {
  /** Limits of this run (turns, cost and tokens count from the run's start). */
  readonly budget: Budget;
  /** Resume an interrupted run: these recorded calls have no result yet; run them first. */
  readonly resume?: PendingCalls;
}

/** Tool calls to run without asking the model first (see {@link AgentMachineInput.resume}). */
export interface PendingCalls {
  readonly calls: readonly ToolCall[];
  /** Per call: may it run concurrently with safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
}

/** A stop that the run is heading for or ended with. */
export interface StopInfo {
  readonly reason: StopReason;
  readonly message: string;
}

/** The machine's context: small, plain, and everything its guards decide on. */
export interface AgentContext {
  readonly budget: Budget;
  /** Model requests made in this run. */
  readonly turns: number;
  /** Usage of this run. */
  readonly usage: TokenUsage;
  /** Milliseconds since the run started, as last reported by an actor. */
  readonly elapsedMs: number;
  /** The current turn's tool calls, in the model's order. */
  readonly calls: readonly ToolCall[];
  /** Per call: may it run concurrently with safe neighbours. */
  readonly concurrencySafe: readonly boolean[];
  /** Per call: its result once settled. */
  readonly results: readonly (ToolResult | undefined)[];
  /** How many calls have settled. */
  readonly settled: number;
  /** Index of the next call to start. */
  readonly nextToStart: number;
  /** Calls started and not yet settled. */
  readonly running: number;
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
}

/** Stops the run: `agent.abort()` sends `aborted`, the wall-clock timer `time_budget`. */
export interface AbortEvent {
  readonly type: 'ABORT';
  readonly reason: 'aborted' | 'time_budget';
  readonly message: string;
}

/** A tool actor finished (success or error). */
export interface ToolSettledEvent {
  readonly type: 'TOOL_SETTLED';
  readonly index: number;
  readonly result: ToolResult;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
}

/** Events the machine accepts from outside and from its tool actors. */
export type AgentMachineEvent = AbortEvent | ToolSettledEvent;

/** Input of the model actor. */
export interface ModelActorInput {
  /** True once a soft limit withheld tools: send no tool definitions. */
  readonly toolsWithheld: boolean;
}

/** Input of one tool actor. */
export interface ToolActorInput {
  readonly call: ToolCall;
  readonly index: number;
  /** True when tools are withheld: answer with an error instead of running the tool. */
  readonly withheld: boolean;
}

export type { ModelTurn };
