import { stableJson } from '../../core/stable-json.js';
import type { ModelTurn } from '../../machines/agent-machine-types.js';
import type { Finding } from './monitor-loop-rules.js';
import type { TraceStep, TransitionScope } from './trace-monitor.js';

/**
 * SPEC §15 on the machine: the turn an effect records (`recordModelTurn`, whether a transition
 * names it or enqueues it as `acceptGatedToolTurn` does for calls that ask; `rejectOutput`) is the
 * model's own turn, the one the transition's `MODEL_TURN` brought, with its reasoning parts
 * unchanged and in order (no signature dropped, no part reordered, none relabelled to another
 * provider) and its own tool calls, so no part is separated from its calls.
 */
export function recordedTurnRules(step: TraceStep, scope: TransitionScope): Finding[] {
  const event = scope.transition?.event;
  if (event?.type !== 'MODEL_TURN') return [];
  const recorded = (step.params as { turn?: ModelTurn } | undefined)?.turn;
  const made = event.turn;
  // The machine hands the event's own turn on: most checks end here.
  if (recorded === made) return [];
  if (recorded === undefined) return [{ rule: 'reasoning_integrity', problem: `'${step.action}' records no turn` }];
  const problems: Finding[] = [];
  if (stableJson(recorded.reasoning ?? []) !== stableJson(made.reasoning ?? [])) {
    problems.push({
      rule: 'reasoning_integrity',
      problem: `'${step.action}' records the turn's reasoning changed (a part dropped, changed, reordered or relabelled)`,
    });
  }
  if (stableJson(recorded.toolCalls) !== stableJson(made.toolCalls)) {
    problems.push({
      rule: 'reasoning_integrity',
      problem: `'${step.action}' records the turn's reasoning apart from its tool calls`,
    });
  }
  return problems;
}

/** The effects that journal a model turn. */
const RECORDS_TURN: ReadonlySet<string> = new Set(['recordModelTurn', 'rejectOutput']);

/**
 * SPEC §15, on a `MODEL_TURN` transition as a whole: the turn is journaled at most once. A turn
 * recorded twice would send its reasoning parts, and its calls, back twice.
 */
export function turnRecordedOnce(trace: readonly TraceStep[], scope: TransitionScope): Finding[] {
  if (scope.transition?.event?.type !== 'MODEL_TURN') return [];
  const records = trace.filter((step) => RECORDS_TURN.has(step.action)).map((step) => `'${step.action}'`);
  if (records.length <= 1) return [];
  return [
    { rule: 'reasoning_integrity', problem: `the turn is recorded ${records.length} times (${records.join(', ')})` },
  ];
}
