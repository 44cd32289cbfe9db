import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PARALLEL_TOOLS, readyRange } from '../../src/machines/tool-schedule.js';

const S = true;
const U = false;

describe('readyRange', () => {
  it('starts a maximal run of safe calls together, and an unsafe call alone', () => {
    expect(readyRange([S, S, U, S], 0, 0)).toEqual({ from: 0, to: 2 });
    expect(readyRange([S, S, U, S], 2, 0)).toEqual({ from: 2, to: 3 });
    expect(readyRange([S, S, U, S], 3, 0)).toEqual({ from: 3, to: 4 });
    expect(readyRange([U, S], 0, 0)).toEqual({ from: 0, to: 1 });
  });

  it('starts nothing while a call of the batch still runs, or when every call has started', () => {
    expect(readyRange([S, S, U], 2, 1)).toEqual({ from: 2, to: 2 });
    expect(readyRange([S, S], 2, 0)).toEqual({ from: 2, to: 2 });
    expect(readyRange([], 0, 0)).toEqual({ from: 0, to: 0 });
  });

  it('starts nothing while an unsafe call runs', () => {
    expect(readyRange([U, S, S], 1, 1, 8)).toEqual({ from: 1, to: 1 });
  });
});

describe('readyRange with maxParallel', () => {
  const forty = Array.from({ length: 40 }, () => S);

  it(`starts at most ${DEFAULT_MAX_PARALLEL_TOOLS} safe calls at once by default`, () => {
    expect(readyRange(forty, 0, 0)).toEqual({ from: 0, to: DEFAULT_MAX_PARALLEL_TOOLS });
  });

  it('starts the next calls of the batch as running ones settle, up to the cap', () => {
    expect(readyRange(forty, 3, 2, 3)).toEqual({ from: 3, to: 4 });
    expect(readyRange(forty, 3, 0, 3)).toEqual({ from: 3, to: 6 });
    expect(readyRange(forty, 3, 3, 3)).toEqual({ from: 3, to: 3 });
  });

  it('never lets the calls after a batch join it', () => {
    expect(readyRange([S, S, S, U], 2, 1, 2)).toEqual({ from: 2, to: 3 });
    expect(readyRange([S, S, S, U], 3, 1, 2)).toEqual({ from: 3, to: 3 });
    expect(readyRange([S, S, U, S, S], 3, 0, 1)).toEqual({ from: 3, to: 4 });
  });

  it('runs a batch one call at a time with a cap of 1', () => {
    expect(readyRange([S, S, S], 0, 0, 1)).toEqual({ from: 0, to: 1 });
    expect(readyRange([S, S, S], 1, 1, 1)).toEqual({ from: 1, to: 1 });
    expect(readyRange([S, S, S], 1, 0, 1)).toEqual({ from: 1, to: 2 });
  });
});
