import { describe, expect, it } from 'vitest';
import { MODEL_PRICES, PRICES_AS_OF, PriceTable } from '../../src/adapters/prices.js';
import { Budget } from '../../src/index.js';

describe('PriceTable', () => {
  it('is dated', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('turns per-million prices into per-1k budget rates', () => {
    const rates = new PriceTable().budgetRates('gpt-4.1-mini');
    expect(rates).toEqual({ inputRatePer1k: 0.0004, outputRatePer1k: 0.0016, cachedInputRatePer1k: 0.0001 });
    const budget = new Budget({ ...rates, maxCost: 0.01 });
    expect(budget.usageCost({ promptTokens: 1_000_000, completionTokens: 1_000_000, totalTokens: 2_000_000 })).toBe(2);
  });

  it('knows dated snapshots and -latest of a known model', () => {
    const table = new PriceTable();
    expect(table.priceOf('gpt-4o-2024-08-06')).toBe(MODEL_PRICES['gpt-4o']);
    expect(table.priceOf('gpt-4o-mini-2024-07-18')).toBe(MODEL_PRICES['gpt-4o-mini']);
    expect(table.priceOf('claude-sonnet-4-5-20250929')).toBe(MODEL_PRICES['claude-sonnet-4-5']);
    expect(table.priceOf('claude-sonnet-4-20250514')).toBe(MODEL_PRICES['claude-sonnet-4-0']);
    expect(table.priceOf('claude-3-5-haiku-latest')).toBe(MODEL_PRICES['claude-3-5-haiku']);
  });

  it('does not mistake another model for a known prefix', () => {
    const table = new PriceTable();
    expect(table.priceOf('gpt-4o-audio-preview')).toBeUndefined();
    expect(table.priceOf('gpt-4.1-mini-fast')).toBeUndefined();
  });

  it('charges nothing for an unknown model and says so once', () => {
    const warnings: string[] = [];
    const table = new PriceTable(MODEL_PRICES, (message) => warnings.push(message));
    expect(table.budgetRates('llama3.1:8b')).toEqual({ inputRatePer1k: 0, outputRatePer1k: 0 });
    table.budgetRates('llama3.1:8b');
    expect(warnings).toEqual([
      "no price known for model 'llama3.1:8b': its cost counts as 0, so a cost budget will not stop the run",
    ]);
  });

  it('takes an overriding table', () => {
    const table = new PriceTable({ ...MODEL_PRICES, 'my-model': { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(table.budgetRates('my-model')).toEqual({ inputRatePer1k: 0.001, outputRatePer1k: 0.002 });
  });
});
