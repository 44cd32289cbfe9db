import type { StopReason } from '../../core/agent-event.js';
import { type BudgetLimits, describeUse, expectedHardStop, expectedSoftLimit } from './budget-oracle.js';
import { overBound } from './monitor-invalid-calls.js';
import type { Finding } from './monitor-loop-rules.js';
import type { MonitorState, TransitionScope } from './trace-monitor.js';

/** A model request is allowed only while no hard limit is reached, and after the warning a soft limit owes. */
export function requestBudgetRules(monitor: MonitorState, request: number, limits: BudgetLimits): Finding[] {
  const problems: Finding[] = [];
  const hard = expectedHardStop(limits, monitor.tally);
  if (hard !== null) {
    problems.push({
      rule: 'hard_limit',
      problem: `model request ${request} was made although ${hard} was reached (${describeUse(limits, monitor.tally, hard)})`,
    });
  }
  const soft = expectedSoftLimit(limits, monitor.tally);
  if (hard === null && soft !== null && !monitor.warned) {
    problems.push({
      rule: 'soft_limit',
      problem: `model request ${request} was made without a warning although the ${soft} soft limit was reached`,
    });
  }
  return problems;
}

/** A warning is given once, for a soft limit that is reached, and never where the run must stop. */
export function warningRules(monitor: MonitorState, limits: BudgetLimits): Finding[] {
  const problems: Finding[] = [];
  if (monitor.warned) problems.push({ rule: 'soft_limit', problem: 'a second soft-limit warning on one path' });
  const hard = expectedHardStop(limits, monitor.tally);
  if (hard !== null) {
    problems.push({
      rule: 'stop_precedence',
      problem: `a soft-limit warning where ${hard} was reached (${describeUse(limits, monitor.tally, hard)}): a hard limit stops the run`,
    });
  } else if (monitor.abort !== null) {
    problems.push({
      rule: 'stop_precedence',
      problem: `a soft-limit warning after an abort (${monitor.abort}) was accepted`,
    });
  } else if (expectedSoftLimit(limits, monitor.tally) === null) {
    problems.push({ rule: 'soft_limit', problem: 'a soft-limit warning although no soft limit was reached' });
  }
  return problems;
}

/**
 * The reason a run must stop with when it enters `error`: an accepted abort (its own reason,
 * `aborted` or `time_budget`) wins over any budget; at `budgetCheck`, `invalid_tool_calls` once a
 * tool reached `maxInvalidToolCalls` invalid calls in a row, else the first hard limit
 * reached in the order turns, cost, tokens, time; after a model failure, `model_error`; after a
 * tool source's failed refresh, `mcp_error`.
 */
export function stopPrecedence(monitor: MonitorState, actual: StopReason, scope: TransitionScope): Finding[] {
  const limits = scope.limits.budget;
  let expected: StopReason | null;
  let why: string;
  if (scope.transition?.event?.type === 'INTERNAL_ERROR') {
    expected = 'internal_error';
    why = 'an effect of the loop failed';
  } else if (scope.transition?.event?.type === 'SUSPEND') {
    expected = 'suspended';
    why = 'the run was suspended while it waited for approval';
  } else if (monitor.abort !== null) {
    expected = monitor.abort;
    why = 'an abort accepted before the check wins';
  } else if (monitor.at === 'budgetCheck' && overBound(monitor, scope.limits.maxInvalidToolCalls) !== undefined) {
    expected = 'invalid_tool_calls';
    why = `'${overBound(monitor, scope.limits.maxInvalidToolCalls)}' had ${scope.limits.maxInvalidToolCalls} invalid calls in a row`;
  } else if (monitor.at === 'budgetCheck') {
    expected = expectedHardStop(limits, monitor.tally);
    why = expected === null ? '' : describeUse(limits, monitor.tally, expected);
    if (expected === null) {
      return [
        {
          rule: 'hard_limit',
          problem: `budgetCheck stopped the run with '${actual}' although no hard limit was reached (turns ${monitor.tally.turns}, tokens ${monitor.tally.usage.totalTokens}, ${monitor.tally.elapsedMs} ms)`,
        },
      ];
    }
  } else if (monitor.outputFailed && monitor.at === 'awaitingModel' && scope.transition?.event?.type === 'MODEL_TURN') {
    expected = 'output_invalid';
    why = 'the last structured answer failed its schema with no retry left';
  } else if (scope.transition?.event?.type === 'COMPACTED') {
    expected = 'context_overflow';
    why = 'the context was over its limit and compaction found nothing to compact';
  } else if (scope.transition?.event?.type === 'MODEL_ERROR') {
    expected = 'model_error';
    why = 'the model request failed';
  } else if (scope.transition?.event?.type === 'TOOL_SOURCE_ERROR') {
    expected = 'mcp_error';
    why = 'a tool source failed to refresh before the request';
  } else {
    return [];
  }
  if (expected === actual) return [];
  return [{ rule: 'stop_precedence', problem: `the run stopped with '${actual}' but '${expected}' must win (${why})` }];
}
