import { Budget, type BudgetOptions, type TokenUsage } from '../../src/index.js';
import { addUsage, ZERO_USAGE } from '../../src/prices.js';
import type { ScriptRun } from '../../src/testing/index.js';

/** The decision of the `budgetCheck` before request `turns + 1`, against what the run did. */
function checkBetweenTurns(
  budget: Budget,
  turns: number,
  usage: TokenUsage,
  seen: { warnedAtTurn: number | undefined; warnedInCheck: boolean },
): string[] {
  const problems: string[] = [];
  const stop = budget.stopReason(turns, usage);
  if (stop !== null) problems.push(`request ${turns + 1} was made although ${stop} was reached`);
  const warnedBefore = seen.warnedAtTurn !== undefined && !seen.warnedInCheck;
  const soft = warnedBefore ? null : budget.softLimit(turns, usage);
  if (soft !== null && !seen.warnedInCheck)
    problems.push(`no warning before request ${turns + 1} at ${soft.budget} ${soft.used}`);
  // Elapsed time is not journalled, so a warning for time can only be judged without a wall clock.
  if (soft === null && seen.warnedInCheck && budget.maxWallClockMs === undefined) {
    problems.push(`a warning before request ${turns + 1} with no soft limit reached`);
  }
  return problems;
}

/**
 * Re-decides every budget check of a run from its journal with the pure budget rules, and says
 * where the run disagrees: it went on although a hard limit was reached, it stopped for a limit
 * that was not reached, or it offered tools to the model after a soft-limit warning.
 * (The wall clock is not re-decided: its elapsed times are not journalled.)
 */
export function budgetDisagreements(run: ScriptRun, options: BudgetOptions): string[] {
  const budget = new Budget({ maxTurns: run.config.maxTurns, ...options });
  const problems: string[] = [];
  let turns = 0;
  let usage: TokenUsage = ZERO_USAGE;
  let warnedAtTurn: number | undefined;
  let warnedInCheck = false;
  for (const entry of run.journal) {
    if (entry.type === 'turn_start') {
      if (turns > 0) problems.push(...checkBetweenTurns(budget, turns, usage, { warnedAtTurn, warnedInCheck }));
      warnedInCheck = false;
      turns += 1;
    }
    if (entry.type === 'usage') usage = addUsage(usage, entry.usage);
    if (entry.type === 'budget_warning') {
      warnedInCheck = true;
      warnedAtTurn = turns;
    }
    if (entry.type === 'agent_error' && entry.reason !== 'time_budget' && entry.reason.endsWith('_budget')) {
      const stop = budget.stopReason(turns, usage);
      if (stop !== entry.reason)
        problems.push(`the run stopped with ${entry.reason} but the rules say ${stop ?? 'go on'}`);
    }
  }
  if (warnedAtTurn !== undefined) {
    const offered = run.client.requests.slice(warnedAtTurn).filter((request) => request.tools.length > 0).length;
    if (offered > 0) problems.push(`${offered} request(s) after the soft-limit warning still offered tools`);
  }
  return problems;
}
