import type { Budget, BudgetStopReason } from '../../config/budget.js';
import type { BudgetKind } from '../../core/agent-event.js';
import type { TokenUsage } from '../../core/usage.js';

/** What a path has used so far, as the monitor counted it from the explored events. */
export interface BudgetTally {
  /** Model turns answered. */
  readonly turns: number;
  /** Sum of the answered turns' usage. */
  readonly usage: TokenUsage;
  /** The latest elapsed time an accepted event reported. */
  readonly elapsedMs: number;
}

/** The limits of a budget, read once from its fields (never through its methods). */
export interface BudgetLimits {
  readonly maxTurns: number | undefined;
  readonly maxCost: number | undefined;
  readonly maxTotalTokens: number | undefined;
  readonly maxWallClockMs: number | undefined;
  readonly inputRatePer1k: number;
  readonly outputRatePer1k: number;
  readonly softLimitRatio: number | undefined;
}

/** Copies a budget's limits, so that the oracle does not run the code it checks. */
export function limitsOf(budget: Budget): BudgetLimits {
  return {
    maxTurns: budget.maxTurns,
    maxCost: budget.maxCost,
    maxTotalTokens: budget.maxTotalTokens,
    maxWallClockMs: budget.maxWallClockMs,
    inputRatePer1k: budget.inputRatePer1k,
    outputRatePer1k: budget.outputRatePer1k,
    softLimitRatio: budget.softLimitRatio,
  };
}

/** Cost of a usage: rates are per 1,000 tokens. */
export function costOf(limits: BudgetLimits, usage: TokenUsage): number {
  return (usage.promptTokens * limits.inputRatePer1k + usage.completionTokens * limits.outputRatePer1k) / 1000;
}

/** Rates and limits are decimals; scaled by this they are compared as exact integers. */
const SCALE = 1e12;
const RATIO_SCALE = 1_000_000;

const scaled = (value: number): bigint => BigInt(Math.round(value * SCALE));

/** Cost in exact units (1e-12 of the currency per 1,000 tokens), so equality is equality. */
function exactCost(limits: BudgetLimits, usage: TokenUsage): bigint {
  return (
    BigInt(usage.promptTokens) * scaled(limits.inputRatePer1k) +
    BigInt(usage.completionTokens) * scaled(limits.outputRatePer1k)
  );
}

const exactMaxCost = (max: number): bigint => scaled(max * 1000);

/** `used / max >= ratio`, decided on integers. */
function atLeast(used: bigint, max: bigint, ratio: number): boolean {
  return used * BigInt(RATIO_SCALE) >= max * BigInt(Math.round(ratio * RATIO_SCALE));
}

/**
 * The hard limit a budget check must stop for, by SPEC §7: turns stop when the count *reaches*
 * the maximum, cost and tokens when use *exceeds* it, time when it is used up; when several are
 * reached at once, the first in the order turns, cost, tokens, time wins. Cost is compared on
 * exact decimals, so a cost equal to the limit never stops.
 */
export function expectedHardStop(limits: BudgetLimits, tally: BudgetTally): BudgetStopReason | null {
  const { maxTurns, maxCost, maxTotalTokens, maxWallClockMs } = limits;
  if (maxTurns !== undefined && tally.turns >= maxTurns) return 'turn_budget';
  if (maxCost !== undefined && exactCost(limits, tally.usage) > exactMaxCost(maxCost)) return 'cost_budget';
  if (maxTotalTokens !== undefined && tally.usage.totalTokens > maxTotalTokens) return 'token_budget';
  if (maxWallClockMs !== undefined && tally.elapsedMs >= maxWallClockMs) return 'time_budget';
  return null;
}

/** The first budget used at least `softLimitRatio` of the way (turns, cost, tokens, time), or null. */
export function expectedSoftLimit(limits: BudgetLimits, tally: BudgetTally): BudgetKind | null {
  const ratio = limits.softLimitRatio;
  if (ratio === undefined) return null;
  const whole = (value: number): bigint => scaled(value);
  const uses: [BudgetKind, bigint | undefined, bigint][] = [
    ['turns', limits.maxTurns === undefined ? undefined : whole(limits.maxTurns), whole(tally.turns)],
    ['cost', limits.maxCost === undefined ? undefined : exactMaxCost(limits.maxCost), exactCost(limits, tally.usage)],
    [
      'tokens',
      limits.maxTotalTokens === undefined ? undefined : whole(limits.maxTotalTokens),
      whole(tally.usage.totalTokens),
    ],
    ['time', limits.maxWallClockMs === undefined ? undefined : whole(limits.maxWallClockMs), whole(tally.elapsedMs)],
  ];
  for (const [kind, max, used] of uses) {
    if (max !== undefined && atLeast(used, max, ratio)) return kind;
  }
  return null;
}

/** `turns 3 of 3`, `cost 0.0016 of 0.0015`, …: what the tally used of the limit a reason names. */
export function describeUse(limits: BudgetLimits, tally: BudgetTally, reason: BudgetStopReason): string {
  switch (reason) {
    case 'turn_budget':
      return `turns ${tally.turns} of ${limits.maxTurns}`;
    case 'cost_budget':
      return `cost ${Number(costOf(limits, tally.usage).toPrecision(12))} of ${limits.maxCost}`;
    case 'token_budget':
      return `tokens ${tally.usage.totalTokens} of ${limits.maxTotalTokens}`;
    case 'time_budget':
      return `time ${tally.elapsedMs} ms of ${limits.maxWallClockMs} ms`;
  }
}
