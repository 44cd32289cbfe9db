import { type GuardrailVerdict, stopsRun } from '../../core/guardrail.js';
import type { ToolCall } from '../../core/messages.js';
import type { ToolResult } from '../../core/tool-result.js';
import { addUsage, type TokenUsage } from '../../core/usage.js';
import type { ApprovalDecision, ModelTurn, Permission } from '../../machines/agent-machine-types.js';
import { gateCalls } from '../../machines/approval-gate.js';
import { countReported } from './monitor-invalid-calls.js';
import type { Finding } from './monitor-loop-rules.js';
import type { MonitoredTransition, MonitorState, SpawnedParams, TraceStep, TransitionScope } from './trace-monitor.js';

type Result = [MonitorState, Finding[]];

const RUNNING = /[su]/g;

function runningCalls(calls: string): number[] {
  return [...calls.matchAll(RUNNING)].map((match) => match.index);
}

function setCall(calls: string, index: number, mark: string): string {
  return `${calls.slice(0, index)}${mark}${calls.slice(index + 1)}`;
}

function answered(monitor: MonitorState, what: string): Finding[] {
  return monitor.requestOpen
    ? []
    : [{ rule: 'request_answered', problem: `${what} was accepted while no model request was in flight` }];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `results[i]` holds what call i settled with, and no other result moved. */
function resultIndex(transition: MonitoredTransition, index: number): Finding[] {
  const { from, to, event } = transition;
  if (from === undefined || event?.type !== 'TOOL_SETTLED') return [];
  const results = to.context.tools.results;
  if (same(results[index], event.result)) {
    const moved = results.findIndex((result, i) => i !== index && !same(result, from.tools.results[i]));
    if (moved < 0) return [];
    return [{ rule: 'result_index', problem: `settling call ${index} changed the result of call ${moved}` }];
  }
  const at = results.findIndex((result, i) => same(result, event.result) && !same(result, from.tools.results[i]));
  const where = at < 0 ? 'nowhere' : `at index ${at}`;
  return [{ rule: 'result_index', problem: `the result of call ${index} was stored ${where}, not at index ${index}` }];
}

/** The settle handed call `index`'s result to its guardrails (it is not stored until they pass). */
function underCheck(transition: MonitoredTransition, index: number): boolean {
  const { from, to, event } = transition;
  return (
    event?.type === 'TOOL_SETTLED' &&
    event.checked !== true &&
    to.context.guardrails.checking.includes(index) &&
    from?.guardrails.checking.includes(index) !== true
  );
}

function settled(
  monitor: MonitorState,
  transition: MonitoredTransition,
  index: number,
  elapsedMs: number,
  usage: TokenUsage | undefined,
): Result {
  const problems: Finding[] = [];
  const mark = monitor.calls[index];
  if (mark === '.' || mark === ':' || mark === '#') {
    problems.push({ rule: 'tool_schedule', problem: `call ${index} settled twice` });
  } else if (mark !== 's' && mark !== 'u') {
    problems.push({ rule: 'tool_schedule', problem: `call ${index} settled but it was never started` });
  }
  // A result waiting for its guardrails is not in the context yet: it lands when it passed.
  if (!underCheck(transition, index)) problems.push(...resultIndex(transition, index));
  // A child agent's usage (an agentTool's call) counts into the run's budgets.
  const tally = {
    ...monitor.tally,
    elapsedMs: Math.max(monitor.tally.elapsedMs, elapsedMs),
    ...(usage === undefined ? {} : { usage: addUsage(monitor.tally.usage, usage) }),
  };
  const calls = mark === undefined ? monitor.calls : setCall(monitor.calls, index, '.');
  return [{ ...monitor, calls, tally }, problems];
}

/**
 * What an event that changed the state says: a model answer ends the request in flight and adds
 * its turn, usage and time to the tally (the budget oracle's input); a result settles a running
 * call and lands at its call's index; the first accepted abort fixes the stop reason.
 */
export function eventRules(monitor: MonitorState, transition: MonitoredTransition): Result {
  const { event } = transition;
  if (event === undefined || !transition.changed) return [monitor, []];
  switch (event.type) {
    case 'MODEL_TURN': {
      const { turn } = event;
      const tally = {
        turns: monitor.tally.turns + 1,
        usage: addUsage(monitor.tally.usage, turn.usage),
        elapsedMs: Math.max(monitor.tally.elapsedMs, turn.elapsedMs),
      };
      // The gate may start the calls in another order than the model's: follow the machine's.
      const gated = gateCalls({ calls: turn.toolCalls, concurrencySafe: turn.concurrencySafe, ...permissionsOf(turn) });
      const calls = gated.concurrencySafe.map((safe) => (safe ? 'S' : 'U')).join('');
      const gate = gateMarks(gated.permissions, gated.decisions);
      const outputFailed = turn.toolCalls.length === 0 && turn.outputCheck?.ok === false;
      const outputRejections = monitor.outputRejections + (outputFailed ? 1 : 0);
      const next = { ...monitor, tally, calls, gate, reported: 0, requestOpen: false, outputFailed, outputRejections };
      // A turn held for the input's verdict is adopted when the input passed (checked then).
      const held = transition.to.context.guardrails.heldTurn !== undefined;
      return [next, [...answered(monitor, 'a model turn'), ...(held ? [] : gateOrder(gated.calls, transition))]];
    }
    case 'APPROVE':
    case 'DENY':
      return decided(monitor, transition, event.callId, event.type === 'APPROVE');
    case 'SUSPEND':
      return [monitor, suspendRules(monitor)];
    case 'MODEL_ERROR':
      return [{ ...monitor, requestOpen: false }, answered(monitor, 'a model error')];
    case 'TOOL_SOURCE_ERROR':
      return [{ ...monitor, requestOpen: false }, answered(monitor, 'a tool source error')];
    case 'TOOL_SETTLED':
      return settled(monitor, transition, event.index, event.elapsedMs, event.usage);
    case 'HANDOFF':
      return [monitor, []];
    case 'GUARDRAIL_CHECKED': {
      // A tripwire stops the run as an abort does (reason `guardrail`), unless one came first.
      const stops = event.verdicts.some(stopsRun);
      const next =
        transition.role === 'matters' && monitor.abort === null && stops
          ? { ...monitor, abort: 'guardrail' as const }
          : monitor;
      const held = transition.from?.guardrails.heldTurn;
      if (held === undefined || stops) return [next, []];
      const gated = gateCalls({ calls: held.toolCalls, concurrencySafe: held.concurrencySafe, ...permissionsOf(held) });
      return [next, gateOrder(gated.calls, transition)];
    }
    case 'ABORT':
      return transition.role === 'matters' && monitor.abort === null
        ? [{ ...monitor, abort: event.reason }, []]
        : [monitor, []];
    case 'COMPACTED': {
      // A summary request's usage counts against the budgets like a turn's (it is not a turn).
      const tally = {
        ...monitor.tally,
        usage: addUsage(monitor.tally.usage, event.usage),
        elapsedMs: Math.max(monitor.tally.elapsedMs, event.elapsedMs),
      };
      return [{ ...monitor, tally, requestOpen: false }, []];
    }
    case 'INTERNAL_ERROR':
      return [monitor, []];
  }
}

/**
 * A tool actor starts only for a call of the turn that has not started, after every earlier
 * call started, and never beside a running call from an earlier batch (the schedule starts the
 * next batch when the last call of the current one settles); an unsafe call starts alone. No
 * call starts once tools are withheld or an abort was accepted (those are answered unstarted).
 */
export function spawnRule(monitor: MonitorState, step: TraceStep, scope: TransitionScope): Result {
  const { index } = step.params as SpawnedParams;
  if (monitor.pendingCalls === 0 && monitor.calls === '') {
    return [
      monitor,
      [{ rule: 'tool_schedule', problem: 'a tool actor was spawned with no tool call awaiting a result' }],
    ];
  }
  if (index === undefined) return [monitor, []];
  const problems: Finding[] = [];
  const mark = monitor.calls[index];
  if (mark === undefined) {
    problems.push({
      rule: 'tool_schedule',
      problem: `a tool actor was spawned for call ${index}, which the turn does not have`,
    });
    return [monitor, problems];
  }
  if (mark !== 'S' && mark !== 'U')
    problems.push({ rule: 'tool_schedule', problem: `call ${index} was started twice` });
  const skipped = monitor.calls.slice(0, index).search(/[SU]/);
  if (skipped >= 0) problems.push({ rule: 'tool_schedule', problem: `call ${index} started before call ${skipped}` });
  const kind = mark === 'U' ? 'unsafe' : 'safe';
  const running = runningCalls(monitor.calls);
  // A later call of the same run of safe calls may join the calls still running (the cap held it back).
  const safeRun = (from: number): boolean => {
    for (let i = from; i <= index; i++) if (step.context.tools.concurrencySafe[i] !== true) return false;
    return true;
  };
  const earlier = running.filter((i) => !scope.batch.includes(i) && !safeRun(i));
  if (running.length >= scope.limits.maxParallelTools) {
    problems.push({
      rule: 'tool_schedule',
      problem: `call ${index} started while ${running.length} calls ran (maxParallelTools ${scope.limits.maxParallelTools})`,
    });
  }
  if (earlier.length > 0) {
    problems.push({
      rule: 'tool_schedule',
      problem: `${kind} call ${index} started while call ${earlier.join(', ')} of an earlier batch was still running`,
    });
  }
  const together = scope.batch.filter((i) => monitor.calls[i] === 'u' || mark === 'U');
  if (together.length > 0) {
    problems.push({
      rule: 'tool_schedule',
      problem: `call ${index} started together with call ${together.join(', ')}, one of them unsafe`,
    });
  }
  if (monitor.warned) {
    problems.push({ rule: 'soft_limit', problem: `call ${index} started although tools are withheld after a warning` });
  }
  if (monitor.abort !== null) {
    problems.push({ rule: 'tool_schedule', problem: `call ${index} started after an abort (${monitor.abort})` });
  }
  problems.push(...gateRules(monitor, index, (step.params as SpawnedParams).answered === true));
  problems.push(...ownDenial(step, index));
  scope.batch.push(index);
  return [{ ...monitor, calls: setCall(monitor.calls, index, mark.toLowerCase()) }, problems];
}

/** Which call a `recordResult` / `reportResults` step is about: the call object, or its id. */
function indexOfCall(calls: readonly { callId: string }[], call: { callId?: string } | undefined): number {
  if (call === undefined) return -1;
  const same = calls.indexOf(call as { callId: string });
  return same >= 0 ? same : calls.findIndex((c) => c.callId === call.callId);
}

/**
 * A call's result is journaled once, after it settled, or without running when tools are
 * withheld or the run is aborting; for a settled call it is the result it settled with.
 */
export function resultRule(monitor: MonitorState, step: TraceStep, scope: TransitionScope): Result {
  const params = step.params as { call?: { callId: string }; result?: unknown } | undefined;
  const problems: Finding[] = [];
  if (monitor.pendingCalls === 0) {
    problems.push({ rule: 'complete_observations', problem: 'a tool result was journaled with no call awaiting one' });
  }
  const pendingCalls = Math.max(0, monitor.pendingCalls - 1);
  // The turn's calls as the transition leaves them: an action may run before the assign that adopts them.
  const index = indexOfCall(scope.transition?.to.context.tools.calls ?? step.context.tools.calls, params?.call);
  const mark = monitor.calls[index];
  if (mark === undefined) return [{ ...monitor, pendingCalls }, problems];
  if (mark === '#')
    problems.push({ rule: 'complete_observations', problem: `the result of call ${index} was journaled twice` });
  if (mark === 's' || mark === 'u') {
    problems.push({
      rule: 'complete_observations',
      problem: `a result of call ${index} was journaled while it still ran`,
    });
  }
  if ((mark === 'S' || mark === 'U') && !monitor.warned && monitor.abort === null) {
    problems.push({ rule: 'tool_schedule', problem: `call ${index} was answered without running` });
  }
  const event = scope.transition?.event;
  if (mark === '.' && step.context.guardrails.toolResult) {
    problems.push({
      rule: 'guarded_results',
      problem: `the result of call ${index} was journaled (and so reaches the next request) before its guardrails' verdict`,
    });
  }
  if (mark === '.' && event?.type === 'TOOL_SETTLED' && event.index === index && !same(params?.result, event.result)) {
    problems.push({
      rule: 'result_index',
      problem: `the result journaled for call ${index} is not the one it settled with`,
    });
  }
  return [{ ...monitor, pendingCalls, calls: setCall(monitor.calls, index, '#') }, problems];
}

/**
 * A guardrail's verdicts are journaled: a result's verdict marks its call checked (`:`), and a
 * verdict that stops the run (a tripwire, a failed check) is remembered: nothing may go on after it.
 */
export function guardrailRule(monitor: MonitorState, step: TraceStep): Result {
  const { verdicts } = step.params as { verdicts: readonly GuardrailVerdict[] };
  let calls = monitor.calls;
  for (const verdict of verdicts) {
    const index = step.context.tools.calls.findIndex((call) => call.callId === verdict.callId);
    if (verdict.callId !== undefined && calls[index] === '.') calls = setCall(calls, index, ':');
  }
  return [{ ...monitor, calls, tripped: monitor.tripped || verdicts.some(stopsRun) }, []];
}

/** Results are reported in call order: each report goes on from the last one, over journaled results only. */
export function reportRule(monitor: MonitorState, step: TraceStep): Result {
  const { from, to, calls, results } = step.params as {
    from: number;
    to: number;
    calls?: readonly ToolCall[];
    results?: readonly (ToolResult | undefined)[];
  };
  const problems: Finding[] = [];
  if (from !== monitor.reported) {
    problems.push({
      rule: 'report_order',
      problem: `results reported from call ${from}, but call ${monitor.reported} is next`,
    });
  }
  for (let index = from; index < to; index++) {
    if (monitor.calls[index] !== '#') {
      problems.push({ rule: 'report_order', problem: `call ${index} was reported before its result was journaled` });
    }
  }
  const counted = calls && results ? countReported(monitor, calls, results, from, to) : monitor;
  return [{ ...counted, reported: Math.max(monitor.reported, to) }, problems];
}

/**
 * Checks of a transition as a whole: a batch of safe calls is a maximal run (the call after it is
 * unsafe or there is none); an accepted abort cancels the work in flight in the same step (each
 * running call is sent `CANCEL`, a model request is cancelled with `cancelInFlight`), not once
 * the calls happen to settle; and the machine never waits in `executingTools` with nothing
 * running while calls have not started.
 */
export function transitionEndRules(
  before: MonitorState,
  monitor: MonitorState,
  trace: readonly TraceStep[],
  scope: TransitionScope,
): Result {
  const problems: Finding[] = [];
  const { batch } = scope;
  const last = batch.at(-1);
  // A safe neighbour that waits for approval starts later, and so does one over the cap.
  const nextWaits = monitor.gate[last === undefined ? -1 : last + 1] === '?';
  const capped = runningCalls(monitor.calls).length >= scope.limits.maxParallelTools;
  if (
    last !== undefined &&
    monitor.calls[batch[0] ?? last] === 's' &&
    monitor.calls[last + 1] === 'S' &&
    !nextWaits &&
    !capped
  ) {
    problems.push({
      rule: 'tool_schedule',
      problem: `safe call ${last + 1} did not start with calls ${batch.join(', ')}: safe neighbours start together`,
    });
  }
  const transition = scope.transition;
  const event = transition?.event;
  if (event?.type === 'ABORT' && transition?.role === 'matters' && transition.changed) {
    const running = runningCalls(before.calls).length;
    const cancelled = new Set(scope.cancelled).size;
    if (cancelled < running) {
      problems.push({
        rule: 'cancel_on_abort',
        problem: `an abort (${event.reason}) was accepted while ${running} call(s) ran, and ${cancelled} was cancelled in the same step`,
      });
    }
    if (before.requestOpen && !trace.some((step) => step.action === 'cancelInFlight')) {
      problems.push({
        rule: 'cancel_on_abort',
        problem: `an abort (${event.reason}) was accepted during a model request, and cancelInFlight did not run in the same step`,
      });
    }
  }
  // A call whose result awaits its guardrails still holds its batch, as a running one does.
  const checking = transition?.to.context.guardrails.checking.length ?? 0;
  if (transition?.to.value === 'executingTools' && runningCalls(monitor.calls).length === 0 && checking === 0) {
    const waiting = monitor.calls.search(/[SU]/);
    if (waiting >= 0) {
      problems.push({ rule: 'tool_schedule', problem: `nothing runs and call ${waiting} never starts` });
    }
  }
  return [monitor, problems];
}

/**
 * What the policy says about a turn's calls: its verdicts' permissions when it has verdicts (a
 * function's answer is the truth the machine must keep), else its permissions.
 */
function permissionsOf(turn: ModelTurn): { permissions?: readonly Permission[] } {
  if (turn.verdicts !== undefined) return { permissions: turn.verdicts.map((verdict) => verdict.permission) };
  return turn.permissions === undefined ? {} : { permissions: turn.permissions };
}

/** The gate marks of a turn (see {@link MonitorState.gate}): empty when every call is allowed. */
export function gateMarks(
  permissions: readonly Permission[],
  decisions: readonly (ApprovalDecision | undefined)[],
): string {
  return permissions
    .map((permission, i) => {
      const decision = decisions[i];
      if (permission === 'deny' || decision?.approved === false) return '-';
      if (permission === 'ask') return decision === undefined ? '?' : '+';
      return 'A';
    })
    .join('');
}

/** The machine holds the turn's calls in the gate's order (allowed first, then those that ask). */
function gateOrder(expected: readonly { callId: string }[], transition: MonitoredTransition): Finding[] {
  const actual = transition.to.context.tools.calls.map((call) => call.callId).join(',');
  const wanted = expected.map((call) => call.callId).join(',');
  if (expected.length === 0 || actual === wanted) return [];
  return [
    { rule: 'approval_gate', problem: `the turn's calls are held as ${actual}, not in the gate's order ${wanted}` },
  ];
}

/** A decision the machine accepted: only for a call that waits; it marks the call approved or denied. */
function decided(monitor: MonitorState, transition: MonitoredTransition, callId: string, approved: boolean): Result {
  if (!transition.changed) return [monitor, []];
  const index = transition.to.context.tools.calls.findIndex((call) => call.callId === callId);
  const mark = monitor.gate[index];
  const problems: Finding[] =
    mark === '?'
      ? []
      : [{ rule: 'approval_gate', problem: `a decision on call ${index} was taken, but it did not wait for one` }];
  if (mark === undefined) return [monitor, problems];
  return [{ ...monitor, gate: setCall(monitor.gate, index, approved ? '+' : '-') }, problems];
}

/**
 * No tool runs without an `allow` or an approval, and a denied call never runs: it is answered
 * without running (its actor is spawned with the denial as its answer).
 */
function gateRules(monitor: MonitorState, index: number, answered: boolean): Finding[] {
  const mark = monitor.gate[index];
  if (mark === '?') {
    return [
      { rule: 'approval_gate', problem: `call ${index} started while it waited for approval (no allow, no approval)` },
    ];
  }
  if (mark === '-' && !answered)
    return [{ rule: 'denied_never_runs', problem: `call ${index} ran although it was denied` }];
  return [];
}

/** How an explored policy function's denial names its call (see `AlphabetOptions.policyVerdicts`). */
const CALL_TAG = /\[call ([^\]]+)\]/;

/** A call denied by a policy function is answered with its own verdict, not another call's. */
function ownDenial(step: TraceStep, index: number): Finding[] {
  const { calls, decisions } = step.context.tools;
  const decision = decisions[index];
  const named = decision?.approved === false ? CALL_TAG.exec(decision.reason)?.[1] : undefined;
  const own = calls[index]?.callId;
  if (named === undefined || named === own) return [];
  return [{ rule: 'denied_never_runs', problem: `call ${index} (${own}) was denied with the verdict on ${named}` }];
}

/** A suspend ends a run that waits: nothing runs, and some call waits for a decision. */
function suspendRules(monitor: MonitorState): Finding[] {
  const problems: Finding[] = [];
  const running = runningCalls(monitor.calls);
  if (running.length > 0) {
    problems.push({ rule: 'suspend_pending', problem: `suspended while call ${running.join(', ')} ran` });
  }
  if (!monitor.gate.includes('?')) {
    problems.push({ rule: 'suspend_pending', problem: 'suspended although no call waited for a decision' });
  }
  return problems;
}
