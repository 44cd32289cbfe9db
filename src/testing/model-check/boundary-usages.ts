import type { Budget } from '../../config/budget.js';
import type { TokenUsage } from '../../core/usage.js';

const usage = (promptTokens: number, completionTokens: number): TokenUsage => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});

/** A small usage that crosses no limit of a sensible budget on its own. */
export const SMALL_USAGE: TokenUsage = usage(10, 5);

/** Prompt tokens (or, at a zero input rate, completion tokens) whose cost is `maxCost`, if whole. */
function tokensCosting(maxCost: number, ratePer1k: number): number | undefined {
  if (ratePer1k <= 0) return undefined;
  const tokens = (maxCost * 1000) / ratePer1k;
  const whole = Math.round(tokens);
  return whole > 0 && Math.abs(whole - tokens) <= tokens * 1e-9 ? whole : undefined;
}

function aroundCost(budget: Budget, maxCost: number): TokenUsage[] {
  const prompt = tokensCosting(maxCost, budget.inputRatePer1k);
  if (prompt !== undefined) return [usage(prompt - 1, 0), usage(prompt, 0), usage(prompt + 1, 0)];
  const completion = tokensCosting(maxCost, budget.outputRatePer1k);
  if (completion !== undefined) return [usage(0, completion - 1), usage(0, completion), usage(0, completion + 1)];
  // No whole number of tokens costs exactly maxCost: the nearest below and above.
  const rate = budget.inputRatePer1k > 0 ? budget.inputRatePer1k : budget.outputRatePer1k;
  if (rate <= 0) return [];
  const tokens = (maxCost * 1000) / rate;
  const below = Math.floor(tokens);
  const side = (n: number) => (budget.inputRatePer1k > 0 ? usage(n, 0) : usage(0, n));
  return [side(below), side(below + 1)];
}

/**
 * Usages that, in one model turn, bring a run from nothing to just below, exactly at and just
 * above each cost and token limit of the budget (`maxTotalTokens` - 1, + 0, + 1 tokens; the
 * prompt tokens whose cost is `maxCost`, - 1, + 0, + 1). Equality must not stop a run (SPEC §7),
 * so these are the values that tell `>` from `>=`.
 */
export function boundaryUsages(budget: Budget): TokenUsage[] {
  const found: TokenUsage[] = [];
  if (budget.maxCost !== undefined) found.push(...aroundCost(budget, budget.maxCost));
  const max = budget.maxTotalTokens;
  if (max !== undefined) found.push(usage(max - 1, 0), usage(max, 0), usage(max + 1, 0));
  const unique = new Map(found.filter((u) => u.promptTokens >= 0).map((u) => [JSON.stringify(u), u]));
  return [...unique.values()];
}
