import type { BudgetOptions } from '../config/budget.js';

/** What a model costs, in USD per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Prompt tokens read from the provider's cache; `inputPerMillion` when absent. */
  readonly cachedInputPerMillion?: number;
  /** Prompt tokens written to the cache (Anthropic: 1.25× input for the 5-minute cache). */
  readonly cacheWritePerMillion?: number;
}

/** Anthropic's published cache pricing: reads at 0.1× the input price, 5-minute writes at 1.25×. */
function anthropic(inputPerMillion: number, outputPerMillion: number): ModelPrice {
  return {
    inputPerMillion,
    outputPerMillion,
    cachedInputPerMillion: round(inputPerMillion * 0.1),
    cacheWritePerMillion: round(inputPerMillion * 1.25),
  };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** When {@link MODEL_PRICES} was last checked against the providers' published list prices. */
export const PRICES_AS_OF = '2026-03-21';

/**
 * List prices (USD per million tokens, standard tier, no batch discount) as of
 * {@link PRICES_AS_OF}, with the cached-input (and, for Anthropic, cache-write) prices. Prices
 * change: pass your own table to {@link PriceTable} to override.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-5.1': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4, cachedInputPerMillion: 0.005 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  o3: { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'o3-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.55 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.275 },
  'claude-opus-4-6': anthropic(5, 25),
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4-0': anthropic(15, 75),
  'claude-sonnet-4-6': anthropic(3, 15),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4-0': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-haiku': anthropic(0.25, 1.25),
});

/** Budget rates for a model: per 1,000 tokens, as {@link BudgetOptions} takes them. */
export type BudgetRates = Required<Pick<BudgetOptions, 'inputRatePer1k' | 'outputRatePer1k'>> &
  Pick<BudgetOptions, 'cachedInputRatePer1k' | 'cacheWriteRatePer1k'>;

/** What may follow a known name: a dated snapshot (`-2025-04-14`, `-20250929`) or `-latest`. */
const VERSION_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

function lookup(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  const exact = prices[model];
  if (exact) return exact;
  // `claude-sonnet-4-20250514` is `claude-sonnet-4-0`; `gpt-4o-2024-08-06` is `gpt-4o`
  for (const [name, price] of Object.entries(prices)) {
    const base = name.endsWith('-0') ? name.slice(0, -2) : name;
    if (model.startsWith(base) && VERSION_SUFFIX.test(model.slice(base.length))) return price;
  }
  return undefined;
}

/**
 * Per-model prices that feed a {@link BudgetOptions}' rates. A model it does not know costs
 * nothing, and the table says so once per model through `warn`.
 */
export class PriceTable {
  private readonly warned = new Set<string>();

  constructor(
    private readonly prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** The price of `model` (exact name, or a dated snapshot of a known name), or undefined. */
  priceOf(model: string): ModelPrice | undefined {
    return lookup(model, this.prices);
  }

  /** The budget rates of `model`; zero, with a one-time warning, when the model is unknown. */
  budgetRates(model: string): BudgetRates {
    const price = this.priceOf(model);
    if (price === undefined) {
      if (!this.warned.has(model)) {
        this.warned.add(model);
        this.warn(`no price known for model '${model}': its cost counts as 0, so a cost budget will not stop the run`);
      }
      return { inputRatePer1k: 0, outputRatePer1k: 0 };
    }
    const rates: { -readonly [K in keyof BudgetRates]: BudgetRates[K] } = {
      inputRatePer1k: price.inputPerMillion / 1000,
      outputRatePer1k: price.outputPerMillion / 1000,
    };
    if (price.cachedInputPerMillion !== undefined) rates.cachedInputRatePer1k = price.cachedInputPerMillion / 1000;
    if (price.cacheWritePerMillion !== undefined) rates.cacheWriteRatePer1k = price.cacheWritePerMillion / 1000;
    return rates;
  }
}
