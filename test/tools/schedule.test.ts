import { describe, expect, it } from 'vitest';
import { readyRange } from '../../src/machines/tool-schedule.js';

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
});
