import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROPERTY_SEED, propertyRuns } from '../../src/testing/index.js';

const runs = { default: 10, deep: 100 };

describe('propertyRuns', () => {
  it('runs one fixed seed by default, so CI checks the same cases every time', () => {
    expect(propertyRuns(runs, {})).toEqual([{ seed: DEFAULT_PROPERTY_SEED, numRuns: 10, verbose: 0 }]);
  });

  it('runs more cases and several seeds at TEST_DEPTH=deep', () => {
    const deep = propertyRuns(runs, { TEST_DEPTH: 'deep' });
    expect(deep.map((run) => run.numRuns)).toEqual([100, 100, 100]);
    expect(new Set(deep.map((run) => run.seed)).size).toBe(3);
    expect(deep[0]?.seed).toBe(DEFAULT_PROPERTY_SEED);
  });

  it('takes the seed, the counterexample path and the verbosity from FC_SEED, FC_PATH and FC_VERBOSE', () => {
    expect(propertyRuns(runs, { FC_SEED: '-7', FC_PATH: '3:1', FC_VERBOSE: '1', TEST_DEPTH: 'deep' })).toEqual([
      { seed: -7, numRuns: 100, path: '3:1', verbose: 1 },
    ]);
  });

  it('takes the number of cases from FC_NUM_RUNS, at any depth', () => {
    expect(propertyRuns(runs, { FC_NUM_RUNS: '3' })).toEqual([{ seed: DEFAULT_PROPERTY_SEED, numRuns: 3, verbose: 0 }]);
    expect(propertyRuns(runs, { FC_NUM_RUNS: '3', TEST_DEPTH: 'deep' }).map((run) => run.numRuns)).toEqual([3, 3, 3]);
    expect(() => propertyRuns(runs, { FC_NUM_RUNS: 'many' })).toThrow(/FC_NUM_RUNS must be an integer/);
  });

  it('refuses a seed or a verbosity that is not one', () => {
    expect(() => propertyRuns(runs, { FC_SEED: 'abc' })).toThrow(/FC_SEED must be an integer, got 'abc'/);
    expect(() => propertyRuns(runs, { FC_VERBOSE: '5' })).toThrow(/FC_VERBOSE must be 0, 1 or 2/);
  });

  it('makes a failure print its seed, the path to its shrunk counterexample, and the counterexample', () => {
    const [settings] = propertyRuns(runs, {});
    let message = '';
    try {
      fc.assert(
        fc.property(fc.nat(), (n) => n < 5),
        { ...settings, numRuns: 1000 },
      );
    } catch (error) {
      message = String((error as Error).message);
    }
    expect(message).toContain(`seed: ${DEFAULT_PROPERTY_SEED}, path: "`);
    expect(message).toContain('Counterexample: [5]');
    const path = /path: "([^"]+)"/.exec(message)?.[1] ?? '';
    // The printed seed and path replay exactly that counterexample, first.
    const replay = propertyRuns(runs, { FC_SEED: String(DEFAULT_PROPERTY_SEED), FC_PATH: path })[0];
    const seen: number[] = [];
    fc.check(
      fc.property(fc.nat(), (n) => {
        seen.push(n);
        return n < 5;
      }),
      { ...replay, numRuns: 1000 },
    );
    expect(seen[0]).toBe(5);
  });
});
