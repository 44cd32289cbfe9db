/**
 * Prices, usage and budgets (`agent-harness/prices`): the model price table, token usage
 * arithmetic, and what a budget reports when it stops or warns.
 */

export type { BudgetRates, ModelPrice } from './adapters/prices.js';
export { MODEL_PRICES, PRICES_AS_OF, PriceTable } from './adapters/prices.js';
export type { BudgetOptions, BudgetStopReason, ModelRates, SoftLimitHit } from './config/budget.js';
export { Budget } from './config/budget.js';
export type { BudgetKind } from './core/agent-event.js';
export type { TokenUsage } from './core/usage.js';
export { addUsage, tokenUsage, ZERO_USAGE } from './core/usage.js';
