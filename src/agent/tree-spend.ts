import type { Budget } from '../config/budget.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../core/usage.js';
import type { StopInfo, TreeBudget } from '../machines/agent-machine-types.js';

/**
 * What one agent run and the sub-agent runs under it have spent so far, counted live: each
 * model request of any run in the tree is charged to its own run and to every run above it as
 * its usage arrives, not when the sub-agent's call returns. A sub-agent's run reads it before
 * each of its requests (`stop()`, the machine's `treeBudgetReached` guard), so the budget of
 * every agent above bounds it: tokens, cost and wall clock as the tree's live totals, and turns
 * as the requests its parent has left.
 */
export class TreeSpend implements TreeBudget {
  /** Tokens this run and every run under it have used so far. */
  usage: TokenUsage = ZERO_USAGE;
  /** Model requests this run made itself (its sub-agents' are not counted here). */
  turns = 0;
  private readonly startedAt: number;

  constructor(
    /** This run's own budget. */
    private readonly budget: Budget,
    /** Names the run in a stop message (its session id, or its tool name). */
    private readonly label: string,
    private readonly now: () => number,
    /** The spend of the run whose tool call started this run; undefined at the root. */
    private readonly parent?: TreeSpend,
  ) {
    this.startedAt = now();
  }

  /** Charges one model request of this run: a turn of its own, and its usage here and above. */
  charge(usage: TokenUsage): void {
    this.turns += 1;
    for (let spend: TreeSpend | undefined = this; spend !== undefined; spend = spend.parent)
      spend.usage = addUsage(spend.usage, usage);
  }

  /**
   * The first limit of the runs above this one that its next request would break, or null:
   * what the machine checks before each request of a sub-agent.
   */
  stop(): StopInfo | null {
    return this.parent?.stopFor(this.turns) ?? null;
  }

  /**
   * The first limit a run directly under this one, having made `childTurns` requests, would
   * break with its next request, or null. An `agentTool` call checks it (with 0) before it
   * starts its child.
   */
  stopFor(childTurns: number): StopInfo | null {
    const left = this.turnsForChild();
    if (childTurns >= left) {
      return {
        reason: 'turn_budget',
        message: `turn budget reached: '${this.label}' had ${Math.max(0, left)} turns left for its sub-agent, which made ${childTurns}`,
      };
    }
    for (let spend: TreeSpend | undefined = this; spend !== undefined; spend = spend.parent) {
      const stop = spend.ownStop();
      if (stop !== null) return stop;
    }
    return null;
  }

  /** Requests a run directly under this one may make: what this run has left of its own and inherited turns. */
  private turnsForChild(): number {
    const inherited = this.parent?.turnsForChild() ?? Number.POSITIVE_INFINITY;
    return Math.min(this.budget.maxTurns ?? Number.POSITIVE_INFINITY, inherited) - this.turns;
  }

  /** This run's cost, token or time limit, as the tree's live totals reach it. */
  private ownStop(): StopInfo | null {
    const { budget, label, usage } = this;
    const elapsed = this.now() - this.startedAt;
    switch (budget.stopReason(0, usage, elapsed)) {
      case 'cost_budget':
        return {
          reason: 'cost_budget',
          message: `cost budget exceeded: '${label}' and its sub-agents spent ${budget.usageCost(usage)} > ${budget.maxCost}`,
        };
      case 'token_budget':
        return {
          reason: 'token_budget',
          message: `token budget exceeded: '${label}' and its sub-agents used ${usage.totalTokens} > ${budget.maxTotalTokens} tokens`,
        };
      case 'time_budget':
        return {
          reason: 'time_budget',
          message: `time budget used up: '${label}' has run ${Math.round(elapsed)} ms of ${budget.maxWallClockMs} ms`,
        };
      default:
        return null;
    }
  }
}
