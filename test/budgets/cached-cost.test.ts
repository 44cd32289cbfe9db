import { describe, expect, it } from 'vitest';
import { MODEL_PRICES, PriceTable } from '../../src/adapters/prices.js';
import { Budget } from '../../src/config/budget.js';
import { addUsage, tokenUsage, usageFromModel } from '../../src/core/usage.js';

const table = new PriceTable(MODEL_PRICES, () => {});

describe('cost with prompt caching (SPEC §15)', () => {
  it("matches Anthropic's own arithmetic on a recorded usage (reads 0.1×, writes 1.25× the input price)", () => {
    // message_delta usage of a claude-sonnet-4-5 turn: input 50, cache read 1,000, cache write 200, output 100.
    // Anthropic: 50 × $3/M + 1,000 × $0.30/M + 200 × $3.75/M + 100 × $15/M = $0.0027.
    const usage = { ...tokenUsage(1250, 100), cachedPromptTokens: 1000, cacheWriteTokens: 200 };
    const budget = new Budget(table.budgetRates('claude-sonnet-4-5'));
    expect(budget.usageCost(usage)).toBeCloseTo(0.0027, 12);
  });

  it("matches OpenAI's own arithmetic on a recorded usage (cached input at its rate)", () => {
    // gpt-4.1: prompt 2,000 of which 1,536 cached, completion 300:
    // 464 × $2/M + 1,536 × $0.50/M + 300 × $8/M = $0.004096.
    const usage = usageFromModel({ prompt_tokens: 2000, completion_tokens: 300, cached_prompt_tokens: 1536 });
    const budget = new Budget(table.budgetRates('gpt-4.1'));
    expect(budget.usageCost(usage)).toBeCloseTo(0.004096, 12);
  });

  it('costs a usage without cache counts as before, and sums the counts across turns', () => {
    const budget = new Budget(table.budgetRates('gpt-4.1'));
    expect(budget.usageCost(tokenUsage(2000, 300))).toBeCloseTo((2000 * 2 + 300 * 8) / 1e6, 12);
    const both = addUsage({ ...tokenUsage(10, 1), cachedPromptTokens: 4 }, tokenUsage(10, 1));
    expect(both).toEqual({ promptTokens: 20, completionTokens: 2, totalTokens: 22, cachedPromptTokens: 4 });
    expect(addUsage(tokenUsage(1, 1), tokenUsage(1, 1))).toEqual(tokenUsage(2, 2));
  });

  it('stops a run on maxCost at the cached rates: a cached-heavy run is not stopped early', () => {
    const rates = table.budgetRates('claude-sonnet-4-5');
    const budget = new Budget({ ...rates, maxCost: 0.003, maxTurns: 100 });
    const cached = { ...tokenUsage(1250, 100), cachedPromptTokens: 1000, cacheWriteTokens: 200 };
    expect(budget.stopReason(1, cached)).toBeNull(); // $0.0027 at cached rates
    expect(budget.stopReason(1, tokenUsage(1250, 100))).toBe('cost_budget'); // $0.00525 at the full rate
  });

  it('refuses a bad cache rate or count, naming it', () => {
    expect(() => new Budget({ cachedInputRatePer1k: -1 })).toThrow(
      /budget.cachedInputRatePer1k must be a non-negative number/,
    );
    expect(() => usageFromModel({ prompt_tokens: 1, completion_tokens: 1, cachedPromptTokens: 1.5 })).toThrow(
      /cachedPromptTokens must be a non-negative integer/,
    );
  });
});
