/**
 * Prices, usage and budgets (`agent-harness/prices`): the model price table, token usage
 * arithmetic, and what a budget reports when it stops or warns.
 */

export type { BudgetRates, ModelPrice } from './adapters/index.js';
export { MODEL_PRICES, PRICES_AS_OF, PriceTable } from './adapters/index.js';
export type { BudgetOptions, BudgetStopReason, SoftLimitHit } from './config/index.js';
export { Budget } from './config/index.js';
export type { BudgetKind, TokenUsage } from './core/index.js';
export { addUsage, tokenUsage, ZERO_USAGE } from './core/index.js';
