/**
 * The edges of `Budget` a run meets: a cost equal to its limit up to float rounding, soft limits
 * on cost and time, the longest wall clock Node can time, and copies made with `with`.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WALL_CLOCK_MS } from '../../src/config/budget.js';
import { Budget } from '../../src/index.js';

const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

describe('Budget edges', () => {
  it('does not stop a run whose cost equals the limit up to float rounding', () => {
    const budget = new Budget({ maxCost: 0.0003, inputRatePer1k: 0.1, outputRatePer1k: 0.2 });
    expect(budget.usageCost(usage(1, 1))).toBeGreaterThan(0.0003);
    expect(budget.stopReason(0, usage(1, 1))).toBeNull();
    expect(budget.stopReason(0, usage(2, 1))).toBe('cost_budget');
  });

  it('allows a cost over the limit by its slack of one part in a billion, and no more', () => {
    const budget = new Budget({ maxCost: 1, inputRatePer1k: 1 + 1e-9, outputRatePer1k: 0 });
    expect(budget.usageCost(usage(1000, 0))).toBe(1 + 1e-9);
    expect(budget.stopReason(0, usage(1000, 0))).toBeNull();
    expect(budget.stopReason(0, usage(1001, 0))).toBe('cost_budget');
  });

  it('warns on cost and on time past the soft limit', () => {
    const budget = new Budget({ maxCost: 1, maxWallClockMs: 1000, softLimitRatio: 0.5 });
    expect(budget.softLimit(0, usage(0, 0), 499)).toBeNull();
    expect(budget.softLimit(0, usage(0, 300_000), 0)).toEqual({ budget: 'cost', used: 0.6 });
    expect(budget.softLimit(0, usage(0, 0), 500)).toEqual({ budget: 'time', used: 0.5 });
  });

  it("takes a wall clock up to Node's longest timer, and refuses a longer one saying so", () => {
    expect(new Budget({ maxWallClockMs: MAX_WALL_CLOCK_MS }).maxWallClockMs).toBe(MAX_WALL_CLOCK_MS);
    expect(() => new Budget({ maxWallClockMs: MAX_WALL_CLOCK_MS + 1 })).toThrowError(
      `budget.maxWallClockMs must be at most ${MAX_WALL_CLOCK_MS} ms (about 24.8 days, the longest timer Node keeps), got ${MAX_WALL_CLOCK_MS + 1}`,
    );
  });

  it('gives back the options that rebuild it, and copies itself with others', () => {
    const all = {
      maxTurns: 3,
      maxCost: 2,
      maxTotalTokens: 500,
      maxWallClockMs: 60_000,
      inputRatePer1k: 0.5,
      outputRatePer1k: 0.25,
      softLimitRatio: 0.75,
    };
    const budget = new Budget(all);
    expect(budget.options()).toStrictEqual(all);
    // No key for a limit it lacks: spread over other options, it would erase theirs.
    expect(new Budget().options()).toStrictEqual({ inputRatePer1k: 0.001, outputRatePer1k: 0.002 });
    expect({ maxTurns: 4, ...new Budget().options() }.maxTurns).toBe(4);
    expect(budget.with({ maxTurns: 9 }).options()).toStrictEqual({ ...all, maxTurns: 9 });
  });

  it('refuses rates that are not non-negative numbers, naming the rate', () => {
    expect(new Budget({ inputRatePer1k: 0, outputRatePer1k: 0 }).usageCost(usage(9, 9))).toBe(0);
    expect(() => new Budget({ outputRatePer1k: -0.5 })).toThrowError(
      'budget.outputRatePer1k must be a non-negative number, got -0.5',
    );
    expect(() => new Budget({ inputRatePer1k: Number.POSITIVE_INFINITY })).toThrowError(
      'budget.inputRatePer1k must be a non-negative number, got Infinity',
    );
  });

  it('refuses options that are not an object, and a soft limit that is not a number, as invalid_config', () => {
    const refusal = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return { reason: (error as { reason?: string }).reason, message: (error as Error).message };
      }
      return undefined;
    };
    expect(refusal(() => new Budget(null as never))).toEqual({
      reason: 'invalid_config',
      message: 'budget options must be an object, got null',
    });
    expect(refusal(() => new Budget(5 as never))).toEqual({
      reason: 'invalid_config',
      message: 'budget options must be an object, got number',
    });
    expect(refusal(() => new Budget({ softLimitRatio: '0.5' as never }))).toEqual({
      reason: 'invalid_config',
      message: 'budget.softLimitRatio must be in (0, 1], got 0.5',
    });
    expect(refusal(() => new Budget({ maxTurns: 1.5 }))).toMatchObject({ reason: 'invalid_config' });
    expect(refusal(() => new Budget({ inputRatePer1k: -1 }))).toMatchObject({ reason: 'invalid_config' });
  });
});
