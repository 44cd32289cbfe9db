import type {
  AgentContext,
  AgentStateName,
  ModelRequestParams,
  ModelTurn,
} from '../../machines/agent-machine-types.js';

/** What the monitor remembers about the path so far. Small, so the product with states stays small. */
export interface MonitorState {
  /** Tool calls recorded whose result is not journaled yet. */
  readonly pendingCalls: number;
  /** An observation was appended and `budgetCheck` has not run since. */
  readonly observedUnchecked: boolean;
  /** The last model turn asked for tools. */
  readonly lastTurnHadTools: boolean;
  /** Model requests on this path. */
  readonly requests: number;
  /** A soft-limit warning was given on this path. */
  readonly warned: boolean;
  /** The run's end was recorded (`finish` or `fail`). */
  readonly ended: boolean;
  /** An ABORT was accepted on this path. */
  readonly abortRequested: boolean;
}

/** The monitor at the start of a run. */
export const INITIAL_MONITOR: MonitorState = {
  pendingCalls: 0,
  observedUnchecked: false,
  lastTurnHadTools: false,
  requests: 0,
  warned: false,
  ended: false,
  abortRequested: false,
};

/** One effect in a transition's trace, with the context of the microstep it ran in. */
export interface TraceStep {
  /**
   * The action's type (`recordTransition`, `requestModel`, `xstate.stopChild`, …),
   * {@link ABORT_ACCEPTED} at the start of a trace whose event was an abort that took effect, or
   * {@link SPAWNED} for a child actor a microstep spawned.
   */
  readonly action: string;
  /** The action's parameters. */
  readonly params: unknown;
  /** The machine's context as the action saw it. */
  readonly context: AgentContext;
}

/** Limits the monitor checks against. */
export interface MonitorLimits {
  /** The turn limit of the explored budget. */
  readonly maxTurns: number | undefined;
}

/** Pseudo-action that opens the trace of an accepted `ABORT`. */
export const ABORT_ACCEPTED = 'event:ABORT';

/** Pseudo-action for a child actor a microstep spawned (`params.id`). */
export const SPAWNED = 'spawned';

const STOP_REASONS = new Set(['turn_budget', 'cost_budget', 'token_budget', 'time_budget', 'aborted', 'model_error']);

type Step = (monitor: MonitorState, step: TraceStep, limits: MonitorLimits) => [MonitorState, string[]];

function entered(monitor: MonitorState, to: AgentStateName, context: AgentContext): [MonitorState, string[]] {
  const problems: string[] = [];
  if (to === 'observing') return observed(monitor, context);
  if (to === 'budgetCheck') {
    if (monitor.pendingCalls > 0) problems.push('budgetCheck ran before every tool call had a result');
    return [{ ...monitor, observedUnchecked: false }, problems];
  }
  if (to === 'done') {
    if (monitor.lastTurnHadTools) problems.push('done followed a turn that asked for tools');
    if (context.response === undefined) problems.push('done without a response');
  }
  if (to === 'error') {
    const stop = context.stop;
    if (stop === undefined || !STOP_REASONS.has(stop.reason)) problems.push(`error without a known reason`);
    else if (stop.message.trim() === '') problems.push(`error '${stop.reason}' without a message`);
    if (monitor.pendingCalls > 0) problems.push(`error entered with ${monitor.pendingCalls} tool call(s) unanswered`);
  }
  return [monitor, problems];
}

function requested(monitor: MonitorState, context: AgentContext, limits: MonitorLimits): [MonitorState, string[]] {
  const problems: string[] = [];
  if (monitor.pendingCalls > 0) problems.push('a model request was made before every tool call had a result');
  if (monitor.observedUnchecked) problems.push('a model request followed an observation without budgetCheck');
  if (monitor.abortRequested) problems.push('a model request was made after an abort');
  const requests = monitor.requests + 1;
  if (limits.maxTurns !== undefined && requests > limits.maxTurns) {
    problems.push(`model request ${requests} exceeds maxTurns ${limits.maxTurns}`);
  }
  // A turn is counted when its answer arrives: request n is made with n - 1 turns counted.
  if (requests !== context.turns + 1) {
    problems.push(`request ${requests} but the context counts ${context.turns} completed turns`);
  }
  return [{ ...monitor, requests }, problems];
}

/** Entering `observing`: every call of the turn has its result, each journaled once. */
function observed(monitor: MonitorState, context: AgentContext): [MonitorState, string[]] {
  const problems: string[] = [];
  const missing = context.results.filter((result) => result === undefined).length;
  if (missing > 0) problems.push(`observations appended with ${missing} result(s) missing`);
  else if (monitor.pendingCalls > 0) problems.push(`${monitor.pendingCalls} result(s) in context but never journaled`);
  return [{ ...monitor, observedUnchecked: true }, problems];
}

function resultRecorded(monitor: MonitorState): [MonitorState, string[]] {
  if (monitor.pendingCalls === 0) return [monitor, ['a tool result was journaled with no call awaiting one']];
  return [{ ...monitor, pendingCalls: monitor.pendingCalls - 1 }, []];
}

function modelInput(monitor: MonitorState, params: unknown): string[] {
  if (!monitor.warned) return [];
  const withheld = (params as Partial<ModelRequestParams> | undefined)?.toolsWithheld === true;
  return withheld ? [] : ['tools were offered to the model after a soft-limit warning'];
}

const steps: Record<string, Step> = {
  recordTransition: (m, s) => entered(m, (s.params as { to: AgentStateName }).to, s.context),
  requestModel: (m, s, limits) => {
    const [monitor, problems] = requested(m, s.context, limits);
    return [monitor, [...problems, ...modelInput(m, s.params)]];
  },
  recordModelTurn: (m, s) => {
    const calls = (s.params as { turn: ModelTurn }).turn.toolCalls.length;
    return [{ ...m, pendingCalls: calls, lastTurnHadTools: calls > 0 }, []];
  },
  recordResult: (m) => resultRecorded(m),
  warnBudget: (m) => [{ ...m, warned: true }, m.warned ? ['a second soft-limit warning on one path'] : []],
  [ABORT_ACCEPTED]: (m) => [{ ...m, abortRequested: true }, []],
  [SPAWNED]: (m) => [m, m.pendingCalls > 0 ? [] : ['a tool actor was spawned with no tool call awaiting a result']],
  finish: (m) => [{ ...m, ended: true }, m.abortRequested ? ['the run finished with an answer after an abort'] : []],
  fail: (m) => [{ ...m, ended: true }, []],
};

/** Runs the monitor over one transition's trace; returns the new monitor and any violations. */
export function monitorTrace(
  monitor: MonitorState,
  trace: readonly TraceStep[],
  limits: MonitorLimits,
): [MonitorState, string[]] {
  let current = monitor;
  const problems: string[] = [];
  for (const step of trace) {
    if (current.ended && step.action !== 'xstate.stopChild') problems.push(`'${step.action}' after the run ended`);
    const handle = steps[step.action];
    if (handle === undefined) continue;
    const [next, found] = handle(current, step, limits);
    current = next;
    problems.push(...found);
  }
  return [current, problems];
}

/** A stable string for a monitor state (part of the product state key). */
export function monitorKey(monitor: MonitorState): string {
  return JSON.stringify(monitor);
}
