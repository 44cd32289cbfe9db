import type { JournalEntry } from '../../core/journal-entry.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../../core/usage.js';
import { type BudgetLimits, expectedHardStop, limitsOf } from '../model-check/budget-oracle.js';
import { runSpans } from './walk-journal.js';
import type { WalkView } from './walk-types.js';

const BUDGET_STOPS: ReadonlySet<string> = new Set(['turn_budget', 'cost_budget', 'token_budget']);

const tallyText = (turns: number, usage: TokenUsage): string => `${turns} turns, ${usage.totalTokens} tokens`;

/** The problems of one run: a request past a hard limit, or a budget stop no limit called for. */
function runProblems(entries: readonly JournalEntry[], offset: number, limits: BudgetLimits): string[] {
  const problems: string[] = [];
  let turns = 0;
  let usage: TokenUsage = ZERO_USAGE;
  entries.forEach((entry, i) => {
    if (entry.type === 'assistant_message') turns++;
    if (entry.type === 'usage') usage = addUsage(usage, entry.usage);
    // A sub-agent's usage comes with its call's result, and counts into the run's.
    if (entry.type === 'tool_result' && entry.usage !== undefined) usage = addUsage(usage, entry.usage);
    const stop = expectedHardStop(limits, { turns, usage, elapsedMs: 0 });
    if (entry.type === 'turn_start' && stop !== null)
      problems.push(
        `entry ${offset + i} (turn_start) asks the model after ${tallyText(turns, usage)}: ${stop} was reached`,
      );
    if (entry.type === 'agent_error' && BUDGET_STOPS.has(entry.reason) && stop !== entry.reason)
      problems.push(
        `entry ${offset + i} stops the run with ${entry.reason} after ${tallyText(turns, usage)}, where the budget says ${stop ?? 'go on'}`,
      );
  });
  return problems;
}

/**
 * Budgets at their boundaries, per run (each run, resumed ones too, starts its own tally): no
 * request once a hard limit is reached (turns when the count reaches `maxTurns`; tokens and
 * cost when use exceeds the limit, every turn's usage counted, a rejected answer's and a
 * sub-agent's too), and a budget stop only where a limit is reached. Judged by the model
 * checker's independent oracle, so each limit is checked at limit − 1, at the limit and at
 * limit + 1 by the walk's boundary scenarios.
 */
export function budgetBoundaries(view: WalkView): string[] {
  const limits = limitsOf(view.config.budget);
  return runSpans(view).flatMap(({ start, end }) => runProblems(view.journal.slice(start, end), start, limits));
}
