import type { Budget, BudgetOptions } from '../../config/budget.js';
import type { BudgetKind, StopReason } from '../../core/agent-event.js';
import type { agentMachine } from '../../machines/agent-machine.js';
import type { AgentStateName, PendingCalls } from '../../machines/agent-machine-types.js';
import type { AlphabetOptions, ExploredEvent, LabelledEvent } from './alphabet.js';
import type { ExploredState } from './state-key.js';
import type { MonitorState, TraceStep } from './trace-monitor.js';

/** One explored transition, as a {@link ModelCheckRule} sees it. */
export interface ExploredStep {
  /** The stable state the event was sent in; `undefined` for the machine's start. */
  readonly from: ExploredState | undefined;
  /** The event; `undefined` for the machine's start. */
  readonly event: ExploredEvent | undefined;
  /** The event's label, as it appears in violation paths (`(start)` for the start). */
  readonly label: string;
  /** Whether the event must change the state (`matters`) or must change nothing (`noise`). */
  readonly role: LabelledEvent['role'];
  /** The stable state the transition ended in. */
  readonly to: ExploredState;
}

/**
 * A check of your own, run on every explored transition of every path: it gets the transition,
 * the effects it ran in order (`trace`: actions with their params and the context each one saw,
 * plus a `spawned` step per tool actor started) and what the built-in monitor knows about the
 * path before this transition (`path`). It returns a description of what is wrong, or
 * `undefined`. The violation is reported under the function's name with the shortest path.
 *
 * Rules must depend only on these arguments: the search merges paths that reach the same state
 * with the same monitor, so a rule with memory of its own would miss paths.
 */
export type ModelCheckRule = (
  step: ExploredStep,
  trace: readonly TraceStep[],
  path: MonitorState,
) => string | undefined;

/** Options of {@link modelCheckAgentMachine}. */
export interface ModelCheckOptions extends Partial<AlphabetOptions> {
  /** The run's budget; it must set `maxTurns`, which bounds the exploration. */
  readonly budget: Budget | BudgetOptions;
  /** The machine's cap on concurrent calls of a batch (its input `maxParallelTools`); default 8. */
  readonly maxParallelTools?: number;
  /** The machine's bound on invalid calls to one tool (its input `maxInvalidToolCalls`); default 3. */
  readonly maxInvalidToolCalls?: number;
  /** The machine's bound on failing structured answers sent back (its input `outputRetries`); default 2. */
  readonly outputRetries?: number;
  /** Explore a resumed run that starts by running these recorded, unanswered calls. */
  readonly resume?: PendingCalls;
  /** The machine to check (e.g. a `.provide()`d variant); `agentMachine` by default. */
  readonly machine?: typeof agentMachine;
  /** Your own checks, run on every transition beside the built-in ones. */
  readonly rules?: readonly ModelCheckRule[];
  /**
   * Events after which every run must have ended. Default: one per model turn and per tool call
   * of each allowed turn (`maxTurns × (1 + maxToolCalls)`), plus the resumed calls, plus one abort.
   */
  readonly maxSteps?: number;
  /** Throw once this many distinct states are found (a guard against a too-large alphabet). Default 500,000. */
  readonly limit?: number;
}

/**
 * The built-in checks of {@link modelCheckAgentMachine}, by name. On every path: the model is
 * asked only once every call has a result (`results_before_request`), after `budgetCheck`
 * (`budget_check_before_request`), never after an abort (`no_request_after_abort`) or a hard
 * limit (`hard_limit`, against an independent budget oracle), with the turn counted
 * (`turn_count`), and a model event is accepted only for a request in flight (`request_answered`);
 * observations are complete (`complete_observations`); `done` follows a turn without tools
 * (`done_after_text_turn`); `error` carries a known reason and message (`stop_reason`) and the
 * reason that must win (`stop_precedence`); soft limits warn once, when reached, then withhold
 * tools (`soft_limit`); an accepted abort cancels the work in flight at once (`cancel_on_abort`);
 * calls start in the schedule's batches, at most `maxParallelTools` at once (`tool_schedule`); no
 * model request follows a tool's `maxInvalidToolCalls`-th invalid call in a row, and
 * `invalid_tool_calls` stops only such a run (`invalid_calls`); a structured answer that fails
 * its schema never ends the run with an answer, is sent back at most `outputRetries` times, and
 * then ends it with `output_invalid` (`output_retries`); the turn recorded is the model's own,
 * its reasoning unchanged, in order, with its calls (`reasoning_integrity`; explored with `reasoning: true`);
 * with guardrails, no tool result is journaled
 * (so none reaches a request) before its guardrails' verdict (`guarded_results`), and after a
 * verdict that stops the run nothing asks the model, starts a tool or answers (`tripwire_ends_run`);
 * no call runs without an `allow` or an approval, and decisions are taken only for calls that
 * wait (`approval_gate`); a denied call is answered without running, with its own verdict (`denied_never_runs`); a
 * suspend ends a run only while nothing runs and a call waits, leaving those calls unanswered
 * (`suspend_pending`); `results[i]` is call i's result
 * (`result_index`), reported in call order (`report_order`); nothing happens after the end (`nothing_after_end`), every final state
 * records it (`run_ends`), and no answer follows an abort (`no_answer_after_abort`). On the graph:
 * every run ends within the step bound (`step_bound`), every state has a way out (`way_out`) and
 * can still end (`end_reachable`), by its own progress rather than an abort or a crash, events that matter change the state (`dropped_event`) and stale
 * ones do not (`stale_event`), and every state of the machine is entered (`unreachable_state`), and no transition
 * throws (`transition_throws`).
 */
export const MACHINE_RULES = [
  'results_before_request',
  'budget_check_before_request',
  'no_request_after_abort',
  'hard_limit',
  'turn_count',
  'request_answered',
  'complete_observations',
  'done_after_text_turn',
  'stop_reason',
  'stop_precedence',
  'soft_limit',
  'cancel_on_abort',
  'tool_schedule',
  'approval_gate',
  'denied_never_runs',
  'suspend_pending',
  'invalid_calls',
  'output_retries',
  'reasoning_integrity',
  'guarded_results',
  'tripwire_ends_run',
  'context_limit',
  'result_index',
  'report_order',
  'nothing_after_end',
  'run_ends',
  'no_answer_after_abort',
  'step_bound',
  'way_out',
  'end_reachable',
  'dropped_event',
  'stale_event',
  'unreachable_state',
  'transition_throws',
] as const;

/** The name of a built-in check (see {@link MACHINE_RULES}). */
export type MachineRule = (typeof MACHINE_RULES)[number];

/** One invariant broken on one path. */
export interface MachineViolation {
  /** The check that found it: a {@link MachineRule}, or the name of one of your {@link ModelCheckRule}s. */
  readonly rule: MachineRule | (string & {});
  /** What went wrong. */
  readonly problem: string;
  /** The shortest path found to it: event labels from the initial state. */
  readonly path: readonly string[];
}

/** What an exhaustive exploration found. */
export interface ModelCheckReport {
  /** Distinct stable states (between events) reached. */
  readonly states: number;
  /** Distinct (state, event) transitions explored. */
  readonly transitions: number;
  /** Distinct (state, path monitor) pairs: the product in which path invariants were checked. */
  readonly productStates: number;
  /** The step bound the exploration used (see {@link ModelCheckOptions.maxSteps}). */
  readonly maxSteps: number;
  /** Every machine state entered on some path, including the transient ones. */
  readonly visited: ReadonlySet<AgentStateName>;
  /** Every reason the run stopped with on some path. */
  readonly stopReasons: ReadonlySet<StopReason>;
  /** Every budget that raised a soft-limit warning on some path. */
  readonly softLimits: ReadonlySet<BudgetKind>;
  /** Broken invariants; empty when the machine keeps them on every path. */
  readonly violations: readonly MachineViolation[];
}
