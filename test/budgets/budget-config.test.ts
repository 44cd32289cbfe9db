import { describe, expect, it } from 'vitest';
import { Budget, Config } from '../../src/index.js';

const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

describe('Budget', () => {
  it('prices usage at 0.001 / 0.002 per 1k tokens by default, or at the given rates', () => {
    expect(new Budget().usageCost(usage(1000, 1000))).toBeCloseTo(0.003, 12);
    expect(new Budget({ inputRatePer1k: 0.01, outputRatePer1k: 0 }).usageCost(usage(500, 500))).toBeCloseTo(0.005, 12);
  });

  it('checks turns, cost, tokens and time in that order, each monotone', () => {
    const budget = new Budget({ maxTurns: 3, maxCost: 1, maxTotalTokens: 100, maxWallClockMs: 1000 });
    expect(budget.stopReason(2, usage(10, 10), 10)).toBeNull();
    expect(budget.stopReason(3, usage(10, 10))).toBe('turn_budget');
    expect(budget.stopReason(4, usage(10, 10))).toBe('turn_budget');
    expect(budget.stopReason(1, usage(60, 40))).toBeNull();
    expect(budget.stopReason(1, usage(61, 40))).toBe('token_budget');
    expect(budget.stopReason(1, usage(1, 1), 999)).toBeNull();
    expect(budget.stopReason(1, usage(1, 1), 1000)).toBe('time_budget');
    expect(new Budget({ maxCost: 0.001 }).stopReason(0, usage(1001, 0))).toBe('cost_budget');
  });

  it('finds the first budget past the soft limit, and none when it is off', () => {
    const budget = new Budget({ maxTurns: 10, maxTotalTokens: 100, softLimitRatio: 0.8 });
    expect(budget.softLimit(7, usage(10, 10))).toBeNull();
    expect(budget.softLimit(8, usage(10, 10))).toEqual({ budget: 'turns', used: 0.8 });
    expect(budget.softLimit(1, usage(50, 40))).toEqual({ budget: 'tokens', used: 0.9 });
    expect(new Budget({ maxTurns: 1 }).softLimit(5, usage(1, 1))).toBeNull();
  });

  it('rejects nonsense limits with invalid_config naming the field', () => {
    expect(() => new Budget({ maxTurns: 0 })).toThrowError(/budget.maxTurns must be a positive integer/);
    expect(() => new Budget({ maxCost: -1 })).toThrowError(/budget.maxCost/);
    expect(() => new Budget({ softLimitRatio: 1.5 })).toThrowError(/softLimitRatio/);
    expect(() => new Budget({ inputRatePer1k: Number.NaN })).toThrowError(/inputRatePer1k/);
  });

  it('says which kind of number a limit takes: an integer of turns, any positive number of cost or time', () => {
    expect(() => new Budget({ maxTotalTokens: 2.5 })).toThrowError(
      'budget.maxTotalTokens must be a positive integer, got 2.5',
    );
    expect(() => new Budget({ maxCost: 0 })).toThrowError('budget.maxCost must be a positive number, got 0');
    expect(() => new Budget({ maxWallClockMs: Number.POSITIVE_INFINITY })).toThrowError(
      'budget.maxWallClockMs must be a positive number, got Infinity',
    );
  });

  it('takes a soft limit in (0, 1]: a ratio of 0 would warn before the run starts', () => {
    expect(() => new Budget({ maxTurns: 4, softLimitRatio: 0 })).toThrowError(
      'budget.softLimitRatio must be in (0, 1], got 0',
    );
    expect(new Budget({ maxTurns: 4, softLimitRatio: 1 }).softLimit(4, usage(0, 0))).toEqual({
      budget: 'turns',
      used: 1,
    });
  });
});

describe('Config', () => {
  it('resolves cwd, fills budget.maxTurns and keeps the other options', () => {
    const config = new Config({ cwd: '.', toolTimeoutMs: 50, maxToolOutputChars: 10 });
    expect(config.cwd).toBe(process.cwd());
    expect(config.maxTurns).toBe(10);
    expect(config.toolTimeoutMs).toBe(50);
    expect(config.maxToolOutputChars).toBe(10);
    expect(new Config({ budget: new Budget({ maxCost: 2 }), maxTurns: 4 }).budget.maxCost).toBe(2);
  });

  it('takes every budget option at the top level too, filling what `budget` does not name', () => {
    const flat = new Config({ maxCost: 0.5, maxTotalTokens: 900, maxWallClockMs: 1_000, softLimitRatio: 0.8 });
    expect(flat.budget.options()).toMatchObject({
      maxTurns: 10,
      maxCost: 0.5,
      maxTotalTokens: 900,
      maxWallClockMs: 1_000,
      softLimitRatio: 0.8,
    });
    expect(new Config({ inputRatePer1k: 0.01 }).budget.inputRatePer1k).toBe(0.01);
    const both = new Config({ maxCost: 1, maxTotalTokens: 50, budget: { maxCost: 2 } });
    expect([both.budget.maxCost, both.budget.maxTotalTokens]).toEqual([2, 50]);
    const instance = new Config({ maxCost: 1, maxTurns: 3, budget: new Budget({ maxCost: 2, inputRatePer1k: 0.5 }) });
    expect([instance.budget.maxCost, instance.budget.maxTurns, instance.budget.inputRatePer1k]).toEqual([2, 3, 0.5]);
  });

  it('rejects bad options with invalid_config', () => {
    expect(() => new Config({ maxCost: -1 })).toThrowError(/maxCost/);
    expect(() => new Config({ budget: 5 } as never)).toThrowError(/budget must be a Budget or an options object/);
    expect(() => new Config({ maxTurns: 1.5 })).toThrowError(/maxTurns/);
    expect(() => new Config({ toolTimeoutMs: 0 })).toThrowError(/toolTimeoutMs/);
    expect(() => new Config({ cwd: '' })).toThrowError(/cwd/);
  });
});

describe('misspelled options', () => {
  it('are refused with the key they probably meant, instead of silently dropping a limit', () => {
    expect(() => new Budget({ maxTokens: 10 } as never)).toThrowError(
      /unknown budget option 'maxTokens': did you mean 'maxTotalTokens'/,
    );
    expect(() => new Config({ max_turns: 2 } as never)).toThrowError(/did you mean 'maxTurns'/);
    expect(() => new Config({ budget: { max_cost: 1 } } as never)).toThrowError(/did you mean 'maxCost'/);
    expect(() => new Config({ max_cost: 1 } as never)).toThrowError(
      /unknown Config option 'max_cost': did you mean 'maxCost'/,
    );
    expect(() => new Config({ maxTurn: 2 } as never)).toThrowError(
      /unknown Config option 'maxTurn': did you mean 'maxTurns'/,
    );
    expect(() => new Budget({ maxCosts: 1 } as never)).toThrowError(/did you mean 'maxCost'/);
    expect(() => new Config({ systemPromt: 'x' } as never)).toThrowError(/did you mean 'systemPrompt'/);
    expect(new Config({ somethingElse: true } as never).maxTurns).toBe(10);
  });
});
