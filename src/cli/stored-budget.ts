import { MODEL_PRICES, PriceTable } from '../adapters/prices.js';
import { Budget, type BudgetOptions, type ModelRates } from '../config/budget.js';
import type { JournalEntry } from '../core/journal-entry.js';

/** The meta key under which `run` keeps its fallback models' rates (JSON: rates by model name). */
export const MODEL_RATES_META = 'modelRates';

/** The rate keys a budget's rates have. */
const RATE_KEYS = ['inputRatePer1k', 'outputRatePer1k', 'cachedInputRatePer1k', 'cacheWriteRatePer1k'] as const;

/**
 * The meta `run` stores with a session so that `inspect` prices it as the run did: the model's
 * rates, and the rates of its `--fallback` models by name ({@link MODEL_RATES_META}).
 */
export function ratesMeta(budget: Budget): Record<string, string> {
  const meta: Record<string, string> = {
    inputRatePer1k: String(budget.inputRatePer1k),
    outputRatePer1k: String(budget.outputRatePer1k),
  };
  if (budget.cachedInputRatePer1k !== budget.inputRatePer1k) {
    meta.cachedInputRatePer1k = String(budget.cachedInputRatePer1k);
  }
  if (budget.cacheWriteRatePer1k !== budget.inputRatePer1k)
    meta.cacheWriteRatePer1k = String(budget.cacheWriteRatePer1k);
  if (budget.modelRates !== undefined) meta[MODEL_RATES_META] = JSON.stringify(budget.modelRates);
  return meta;
}

function isRate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The rates kept under {@link MODEL_RATES_META}, the well-formed ones only (a meta is untrusted text). */
function keptModelRates(text: string | undefined): Record<string, ModelRates> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const kept: Record<string, ModelRates> = {};
  for (const [model, given] of Object.entries(parsed)) {
    if (typeof given !== 'object' || given === null) continue;
    const rates: { -readonly [K in keyof ModelRates]: ModelRates[K] } = {};
    for (const key of RATE_KEYS) {
      const value = (given as Record<string, unknown>)[key];
      if (isRate(value)) rates[key] = value;
    }
    if (rates.inputRatePer1k !== undefined && rates.outputRatePer1k !== undefined) kept[model] = rates;
  }
  return kept;
}

/** The models that answered a session's turns, as its `usage` entries name them (a fallback chain's). */
export function answeringModels(entries: readonly JournalEntry[]): string[] {
  const models = new Set<string>();
  for (const entry of entries) if (entry.type === 'usage' && entry.model !== undefined) models.add(entry.model);
  return [...models];
}

/**
 * A stored session's budget for pricing it (`inspect`): the rates `run` kept in its meta for its
 * model, and for each other model its `usage` entries name (a fallback chain's turns) that
 * model's rates: the ones kept in the meta, else its list price; a model with neither is priced
 * at the session's rates.
 * Undefined when the meta keeps no rates and no entry names a priced model (default rates).
 */
export function storedBudget(
  meta: Readonly<Record<string, string>>,
  entries: readonly JournalEntry[] = [],
): Budget | undefined {
  const own: { -readonly [K in keyof BudgetOptions]: BudgetOptions[K] } = {};
  for (const key of RATE_KEYS) {
    const value = meta[key] === undefined ? undefined : Number(meta[key]);
    if (isRate(value)) own[key] = value;
  }
  const hasOwn = own.inputRatePer1k !== undefined && own.outputRatePer1k !== undefined;
  if (!hasOwn) {
    for (const key of RATE_KEYS) delete own[key];
  }
  const kept = keptModelRates(meta[MODEL_RATES_META]);
  // Silent: a model without a list price is priced at the session's rates, as documented.
  const prices = new PriceTable(MODEL_PRICES, () => {});
  const modelRates: Record<string, ModelRates> = {};
  for (const model of answeringModels(entries)) {
    if (hasOwn && model === meta.model) continue; // the session's own model, at the rates kept for it
    const rates = kept[model] ?? (prices.priceOf(model) === undefined ? undefined : prices.budgetRates(model));
    if (rates !== undefined) modelRates[model] = rates;
  }
  if (!hasOwn && Object.keys(modelRates).length === 0) return undefined;
  return new Budget({ ...own, ...(Object.keys(modelRates).length > 0 ? { modelRates } : {}) });
}
