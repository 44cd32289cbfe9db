import { describe, expect, it } from 'vitest';
import { Budget } from '../../src/index.js';
import { usage } from '../support/fixtures.js';

describe('seed: budget checks', () => {
  it('stops at the turn limit and above the cost limit, not at it', () => {
    const budget = new Budget({ maxTurns: 3, maxCost: 0.00005 });
    const sample = usage(30, 10);
    expect(budget.usageCost(sample)).toBeCloseTo(0.00005, 12);
    expect({
      beforeLimit: budget.stopReason(1, sample),
      atTurnLimit: budget.stopReason(3, sample),
      atCostLimit: budget.stopReason(1, usage(40, 10)),
    }).toEqual({ beforeLimit: null, atTurnLimit: 'turn_budget', atCostLimit: 'cost_budget' });
  });
});
