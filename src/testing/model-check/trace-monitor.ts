import type { AbortEvent, AgentContext } from '../../machines/agent-machine-types.js';
import type { ExploredEvent } from './alphabet.js';
import type { BudgetLimits, BudgetTally } from './budget-oracle.js';
import { type Finding, stateRules } from './monitor-loop-rules.js';
import { turnRecordedOnce } from './monitor-reasoning.js';
import {
  eventRules,
  guardrailRule,
  reportRule,
  resultRule,
  spawnRule,
  transitionEndRules,
} from './monitor-tool-rules.js';

/**
 * What the monitor remembers about the path so far. Small, and in a correct machine a function
 * of the machine's state, so the product of states and monitors stays as small as the graph.
 */
export interface MonitorState {
  /** Tool calls recorded (`recordModelTurn`) whose result is not journaled yet (`recordResult`). */
  readonly pendingCalls: number;
  /** An observation was appended and `budgetCheck` has not run since. */
  readonly observedUnchecked: boolean;
  /** The last model turn asked for tools. */
  readonly lastTurnHadTools: boolean;
  /** Model requests on this path. */
  readonly requests: number;
  /** A model request was made and its answer has not arrived. */
  readonly requestOpen: boolean;
  /** A soft-limit warning was given on this path. */
  readonly warned: boolean;
  /** The run's end was recorded (`finish` or `fail`). */
  readonly ended: boolean;
  /** The reason of the first ABORT accepted on this path, if any. */
  readonly abort: AbortEvent['reason'] | null;
  /** The state entered last (`recordTransition`). */
  readonly at: string | null;
  /** Turns, usage and time of the path, counted from the explored events (the budget oracle's input). */
  readonly tally: BudgetTally;
  /**
   * The current turn's calls, one character each: `S`/`U` safe/unsafe and not started, `s`/`u`
   * running, `.` settled and not journaled yet, `:` settled with its guardrails' verdict and not
   * journaled yet, `#` journaled. Empty between turns.
   */
  readonly calls: string;
  /** How many of the turn's results, from the first call on, were reported (`reportResults`). */
  readonly reported: number;
  /**
   * The current turn's calls as the approval gate sees them, in the machine's order, one
   * character each: `A` allowed, `?` waits for a decision, `+` approved, `-` denied (by a person
   * or the policy). Empty when every call is allowed.
   */
  readonly gate: string;
  /** Per tool name: invalid calls reported in a row on this path (reset by a success). */
  readonly invalid: Readonly<Record<string, number>>;
  /** Failing structured answers accepted on this path; `outputFailed` if the last answer failed. */
  readonly outputRejections: number;
  readonly outputFailed: boolean;
  /** A guardrail's verdict stopped the run (a tripwire, or a check that failed): it must end. */
  readonly tripped: boolean;
}

/** The monitor at the start of a run. */
export const INITIAL_MONITOR: MonitorState = {
  pendingCalls: 0,
  observedUnchecked: false,
  lastTurnHadTools: false,
  requests: 0,
  requestOpen: false,
  warned: false,
  ended: false,
  abort: null,
  at: null,
  tally: { turns: 0, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, elapsedMs: 0 },
  calls: '',
  reported: 0,
  gate: '',
  invalid: {},
  outputRejections: 0,
  outputFailed: false,
  tripped: false,
};

/** One effect in a transition's trace, with the context of the microstep it ran in. */
export interface TraceStep {
  /**
   * The action's type (`recordTransition`, `requestModel`, `xstate.stopChild`, …), or
   * {@link SPAWNED} for a child actor a microstep spawned.
   */
  readonly action: string;
  /** The action's parameters (for {@link SPAWNED}: the child's `id`, and its call `index` and `withheld` flag). */
  readonly params: unknown;
  /** The machine's context as the action saw it. */
  readonly context: AgentContext;
}

/** Parameters of a {@link SPAWNED} step. */
export interface SpawnedParams {
  /** The child actor's id. */
  readonly id: string;
  /** The index of the call it runs, read from its input. */
  readonly index?: number;
  /** True when the actor answers without running the call (a denial, an in-doubt call). */
  readonly answered?: boolean;
}

/** Limits the monitor checks against. */
export interface MonitorLimits {
  /** The explored budget's limits, read from its fields (the oracle never calls the budget's code). */
  readonly budget: BudgetLimits;
  /** At most this many calls of a batch run at once. */
  readonly maxParallelTools: number;
  /** A run must end with `invalid_tool_calls` once one tool has this many invalid calls in a row. */
  readonly maxInvalidToolCalls: number;
  /** At most this many failing structured answers are sent back. */
  readonly outputRetries: number;
  /** No request may be made while the context is over this many tokens (when explored). */
  readonly contextLimit?: number;
}

/** Pseudo-action for a child actor a microstep spawned. */
export const SPAWNED = 'spawned';

/** The transition a trace belongs to. */
export interface MonitoredTransition {
  /** The event; `undefined` for the start. */
  readonly event: ExploredEvent | undefined;
  /** Whether the alphabet says the event must change the state. */
  readonly role: 'matters' | 'noise';
  /** Context before the event (`undefined` for the start). */
  readonly from: AgentContext | undefined;
  /** State name and context after the transition. */
  readonly to: { readonly value: string; readonly context: AgentContext };
  /** Whether the stable state changed. */
  readonly changed: boolean;
}

/** What the handlers of one transition share: its event and the calls it started. */
export interface TransitionScope {
  readonly limits: MonitorLimits;
  readonly transition: MonitoredTransition | undefined;
  /** Indices of the tool actors this transition spawned, in order. */
  readonly batch: number[];
  /** Ids of the actors this transition sent `CANCEL`. */
  readonly cancelled: string[];
}

type Rule = (monitor: MonitorState, step: TraceStep, scope: TransitionScope) => [MonitorState, Finding[]];

/** Effects about tool calls: their start, their journaled results, their reports, their cancellation. */
const TOOL_RULES: Readonly<Record<string, Rule>> = {
  [SPAWNED]: spawnRule,
  recordResult: resultRule,
  recordGuardrails: guardrailRule,
  reportResults: reportRule,
  'xstate.sendTo': (monitor, step, scope) => {
    const params = step.params as { targetId?: unknown; event?: { type?: unknown } } | undefined;
    if (params?.event?.type === 'CANCEL' && typeof params.targetId === 'string') scope.cancelled.push(params.targetId);
    return [monitor, []];
  },
};

/** What may not follow a guardrail verdict that stops the run: another request, a tool starting, an answer. */
const AFTER_A_TRIPWIRE: ReadonlySet<string> = new Set(['requestModel', SPAWNED, 'finish']);

function runSteps(
  monitor: MonitorState,
  trace: readonly TraceStep[],
  scope: TransitionScope,
  findings: Finding[],
): MonitorState {
  let current = monitor;
  for (const step of trace) {
    if (current.ended && step.action !== 'xstate.stopChild') {
      findings.push({ rule: 'nothing_after_end', problem: `'${step.action}' after the run ended` });
    }
    if (current.tripped && AFTER_A_TRIPWIRE.has(step.action)) {
      findings.push({ rule: 'tripwire_ends_run', problem: `'${step.action}' after a guardrail stopped the run` });
    }
    const [next, found] = (TOOL_RULES[step.action] ?? stateRules)(current, step, scope);
    current = next;
    findings.push(...found);
  }
  return current;
}

/** Runs the monitor over the effects of a trace alone (no event); returns the new monitor and its findings. */
export function monitorTrace(
  monitor: MonitorState,
  trace: readonly TraceStep[],
  limits: MonitorLimits,
): [MonitorState, Finding[]] {
  const findings: Finding[] = [];
  const next = runSteps(monitor, trace, { limits, transition: undefined, batch: [], cancelled: [] }, findings);
  return [next, findings];
}

/**
 * Runs the monitor over one transition: the event first (what it says about the budget, the
 * model request it answers, the call it settles), then its effects in order, then the checks of
 * the transition as a whole (a batch of calls, cancelling on an abort, calls left waiting).
 */
export function monitorTransition(
  monitor: MonitorState,
  transition: MonitoredTransition,
  trace: readonly TraceStep[],
  limits: MonitorLimits,
): [MonitorState, Finding[]] {
  const scope: TransitionScope = { limits, transition, batch: [], cancelled: [] };
  const [afterEvent, findings] = eventRules(monitor, transition);
  const afterSteps = runSteps(afterEvent, trace, scope, findings);
  const [end, found] = transitionEndRules(monitor, afterSteps, trace, scope);
  findings.push(...found, ...turnRecordedOnce(trace, scope));
  return [end, findings];
}

/** A stable string for a monitor state (part of the product state key). */
export function monitorKey(monitor: MonitorState): string {
  return JSON.stringify(monitor);
}

export type { Finding };
