import type { Budget, BudgetStopReason } from '../config/budget.js';
import type { AgentContext, StopInfo } from './agent-machine-types.js';

/** The hard budget stop for the context, if any. */
export function hardStop(context: AgentContext): BudgetStopReason | null {
  return context.limits.budget.stopReason(context.turns, context.usage, context.elapsedMs);
}

function describe(reason: BudgetStopReason, budget: Budget, context: AgentContext): string {
  switch (reason) {
    case 'turn_budget':
      return `turn budget reached: ${context.turns} of ${budget.maxTurns} turns used while the model was still acting`;
    case 'cost_budget':
      return `cost budget exceeded: ${budget.usageCost(context.usage)} > ${budget.maxCost}`;
    case 'token_budget':
      return `token budget exceeded: ${context.usage.totalTokens} > ${budget.maxTotalTokens} tokens`;
    case 'time_budget':
      return `time budget used up: ${Math.round(context.elapsedMs)} ms of ${budget.maxWallClockMs} ms`;
  }
}

/**
 * The limit of an agent above this sub-agent's run that its next request would break, or null
 * (always null for a top-level run): checked before each request, the first included.
 */
export function treeStop(context: AgentContext): StopInfo | null {
  return context.limits.tree?.stop() ?? null;
}

/** The stop record for a budget stop reason. */
export function budgetStop(reason: BudgetStopReason, context: AgentContext): StopInfo {
  return { reason, message: describe(reason, context.limits.budget, context) };
}
