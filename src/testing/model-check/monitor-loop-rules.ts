import { STOP_REASONS } from '../../core/agent-event.js';
import type {
  AgentContext,
  AgentStateName,
  ModelRequestParams,
  ModelTurn,
} from '../../machines/agent-machine-types.js';
import type { MachineRule } from './model-check-types.js';
import { requestBudgetRules, stopPrecedence, warningRules } from './monitor-budget-rules.js';
import { requestInvalidRules } from './monitor-invalid-calls.js';
import { recordedTurnRules } from './monitor-reasoning.js';
import type { MonitorState, TraceStep, TransitionScope } from './trace-monitor.js';

/** A problem a rule found on the current transition. */
export interface Finding {
  readonly rule: MachineRule;
  readonly problem: string;
}

/**
 * The stop reasons the machine may give on its own; `internal_error` needs a crash, `suspended`
 * a SUSPEND, and `store_error` a failed store, which the explored alphabet never sends.
 */
const OWN_STOP_REASONS: ReadonlySet<string> = new Set(
  STOP_REASONS.filter((reason) => reason !== 'internal_error' && reason !== 'suspended' && reason !== 'store_error'),
);

type Result = [MonitorState, Finding[]];

function entered(monitor: MonitorState, to: AgentStateName, context: AgentContext, scope: TransitionScope): Result {
  const problems: Finding[] = [];
  const problems0 = to === 'observing' ? observed(monitor, context) : [];
  // Between turns the monitor forgets the settled calls, as the state key forgets them.
  const between = to !== 'executingTools' && to !== 'awaitingApproval' && !/[SUsu]/.test(monitor.calls);
  const next = { ...monitor, at: to, ...(between ? { calls: '', reported: 0, gate: '' } : {}) };
  if (to === 'observing') return [{ ...next, observedUnchecked: true }, problems0];
  if (to === 'budgetCheck') {
    if (monitor.pendingCalls > 0) {
      problems.push({ rule: 'complete_observations', problem: 'budgetCheck ran before every tool call had a result' });
    }
    return [{ ...next, observedUnchecked: false }, problems];
  }
  if (to === 'done' && monitor.outputFailed) {
    problems.push({ rule: 'output_retries', problem: 'done followed an answer that failed the output schema' });
  }
  if (
    to === 'error' &&
    context.stop?.reason === 'output_invalid' &&
    monitor.outputRejections <= scope.limits.outputRetries
  ) {
    problems.push({
      rule: 'output_retries',
      problem: `output_invalid after ${monitor.outputRejections} failing answer(s), with ${scope.limits.outputRetries} retries allowed`,
    });
  }
  if (to === 'done') {
    if (monitor.lastTurnHadTools)
      problems.push({ rule: 'done_after_text_turn', problem: 'done followed a turn that asked for tools' });
    if (context.response === undefined)
      problems.push({ rule: 'done_after_text_turn', problem: 'done without a response' });
  }
  if (to === 'error') {
    const stop = context.stop;
    const crashed = scope.transition?.event?.type === 'INTERNAL_ERROR';
    const suspended = scope.transition?.event?.type === 'SUSPEND';
    if (
      stop === undefined ||
      !(
        OWN_STOP_REASONS.has(stop.reason) ||
        (crashed && stop.reason === 'internal_error') ||
        (suspended && stop.reason === 'suspended')
      )
    )
      problems.push({ rule: 'stop_reason', problem: `error without a known reason (${stop?.reason ?? 'none'})` });
    else if (stop.message.trim() === '')
      problems.push({ rule: 'stop_reason', problem: `error '${stop.reason}' without a message` });
    else problems.push(...stopPrecedence(monitor, stop.reason, scope));
    // A suspended run leaves the calls that have not started (they wait for a decision, or are
    // behind one that waits) unanswered, and only those.
    const waiting = suspended ? [...monitor.calls].filter((mark) => mark === 'S' || mark === 'U').length : 0;
    if (suspended && monitor.pendingCalls < waiting) {
      problems.push({
        rule: 'suspend_pending',
        problem: `suspended with ${waiting} call(s) not started but ${monitor.pendingCalls} unanswered`,
      });
    }
    if (monitor.pendingCalls > waiting && !crashed) {
      problems.push({
        rule: 'complete_observations',
        problem: `error entered with ${monitor.pendingCalls} tool call(s) unanswered`,
      });
    }
  }
  return [next, problems];
}

function requested(monitor: MonitorState, step: TraceStep, scope: TransitionScope): Result {
  const problems: Finding[] = [];
  const { context } = step;
  if (monitor.pendingCalls > 0) {
    problems.push({
      rule: 'results_before_request',
      problem: 'a model request was made before every tool call had a result',
    });
  }
  if (monitor.observedUnchecked) {
    problems.push({
      rule: 'budget_check_before_request',
      problem: 'a model request followed an observation without budgetCheck',
    });
  }
  if (monitor.abort !== null)
    problems.push({ rule: 'no_request_after_abort', problem: 'a model request was made after an abort' });
  if (monitor.requestOpen) {
    problems.push({ rule: 'request_answered', problem: 'a model request was made while another was unanswered' });
  }
  const requests = monitor.requests + 1;
  // A turn is counted when its answer arrives: request n is made with n - 1 turns counted.
  if (requests !== context.turns + 1) {
    problems.push({
      rule: 'turn_count',
      problem: `request ${requests} but the context counts ${context.turns} completed turns`,
    });
  }
  const limit = scope.limits.contextLimit;
  if (limit !== undefined && context.contextTokens > limit) {
    problems.push({
      rule: 'context_limit',
      problem: `a model request was made with the context at ${context.contextTokens} tokens, over its limit of ${limit}`,
    });
  }
  problems.push(...requestBudgetRules(monitor, requests, scope.limits.budget));
  problems.push(...requestInvalidRules(monitor, requests, scope.limits.maxInvalidToolCalls));
  if (monitor.outputRejections > scope.limits.outputRetries) {
    problems.push({
      rule: 'output_retries',
      problem: `model request ${requests} was made after ${monitor.outputRejections} failing answers, with ${scope.limits.outputRetries} retries allowed`,
    });
  }
  if (monitor.warned && (step.params as Partial<ModelRequestParams> | undefined)?.toolsWithheld !== true) {
    problems.push({ rule: 'soft_limit', problem: 'tools were offered to the model after a soft-limit warning' });
  }
  if (!monitor.warned && (step.params as Partial<ModelRequestParams> | undefined)?.toolsWithheld === true) {
    problems.push({ rule: 'soft_limit', problem: 'tools were withheld from the model without a soft-limit warning' });
  }
  return [{ ...monitor, requests, requestOpen: true }, problems];
}

/** Entering `observing`: every call of the turn has its result, journaled and reported in call order. */
function observed(monitor: MonitorState, context: AgentContext): Finding[] {
  const problems: Finding[] = [];
  const missing = context.tools.results.filter((result) => result === undefined).length;
  if (missing > 0) {
    problems.push({
      rule: 'complete_observations',
      problem: `observations appended with ${missing} result(s) missing`,
    });
  } else if (monitor.pendingCalls > 0) {
    problems.push({
      rule: 'complete_observations',
      problem: `${monitor.pendingCalls} result(s) in context but never journaled`,
    });
  }
  if (monitor.reported < monitor.calls.length) {
    problems.push({
      rule: 'report_order',
      problem: `observing entered with call ${monitor.reported} of ${monitor.calls.length} not reported`,
    });
  }
  return problems;
}

/** The monitor's handling of one effect (anything but a spawn): the loop's and the budget's rules. */
export function stateRules(monitor: MonitorState, step: TraceStep, scope: TransitionScope): Result {
  switch (step.action) {
    case 'recordTransition':
      return entered(monitor, (step.params as { to: AgentStateName }).to, step.context, scope);
    case 'requestModel':
      return requested(monitor, step, scope);
    case 'recordModelTurn': {
      const calls = (step.params as { turn: ModelTurn }).turn.toolCalls.length;
      return [{ ...monitor, pendingCalls: calls, lastTurnHadTools: calls > 0 }, recordedTurnRules(step, scope)];
    }
    case 'rejectOutput':
      return [monitor, recordedTurnRules(step, scope)];
    case 'compactContext':
      // A summary request may be in flight: its answer is `COMPACTED`, or `MODEL_ERROR` when it fails.
      return [{ ...monitor, requestOpen: true }, []];
    case 'warnBudget':
      return [{ ...monitor, warned: true }, warningRules(monitor, scope.limits.budget)];
    case 'finish': {
      const problems: Finding[] =
        monitor.abort === null
          ? []
          : [{ rule: 'no_answer_after_abort', problem: 'the run finished with an answer after an abort' }];
      return [{ ...monitor, ended: true }, problems];
    }
    case 'fail':
      return [{ ...monitor, ended: true }, []];
    default:
      return [monitor, []];
  }
}
