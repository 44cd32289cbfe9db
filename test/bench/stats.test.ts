import { describe, expect, it } from 'vitest';
import { markdownTable } from '../../bench/support/report.js';
import { quantile, summarise } from '../../bench/support/stats.js';

describe('summarise', () => {
  it('gives the middle sample of an odd count, and min and max, keeping the samples in order', () => {
    expect(summarise([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, samples: [5, 1, 3] });
  });

  it('averages the two middle samples of an even count', () => {
    expect(summarise([4, 1, 3, 2]).median).toBe(2.5);
  });

  it('refuses an empty set', () => {
    expect(() => summarise([])).toThrow(/no samples/);
  });
});

describe('markdownTable', () => {
  it('prints one row per result with median, min–max and the target verdict', () => {
    const table = markdownTable([
      {
        case: '1 turn cost T=10',
        impl: 'agent-harness',
        metric: 'CPU µs/turn',
        summary: summarise([40, 45, 60]),
        target: '≤ 50',
        met: true,
      },
      { case: '5 replay', impl: 'bare loop', metric: 'entries/s', summary: summarise([1_234_567]), note: 'unchecked' },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('| 1 turn cost T=10 | agent-harness | CPU µs/turn | 45.0 | 40.0–60.0 | ≤ 50 ✅ |');
    expect(lines[3]).toBe('| 5 replay | bare loop | entries/s (unchecked) | 1,234,567 | 1,234,567–1,234,567 |  |');
  });
});

describe('quantile', () => {
  const samples = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];

  it('takes the nearest rank: the smallest sample with a fraction q at or below it', () => {
    expect(quantile(samples, 0.5)).toBe(5);
    expect(quantile(samples, 0.99)).toBe(10);
    expect(quantile(samples, 0.1)).toBe(1);
    expect(quantile(samples, 0)).toBe(1);
    expect(quantile(samples, 1)).toBe(10);
    expect(quantile([4], 0.99)).toBe(4);
  });

  it('leaves the samples in their order', () => {
    const copy = [...samples];
    quantile(samples, 0.5);
    expect(samples).toEqual(copy);
  });

  it('refuses an empty set and a q outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow(/no samples/);
    expect(() => quantile([1], 1.5)).toThrow(/q must be in/);
    expect(() => quantile([1], Number.NaN)).toThrow(/q must be in/);
  });
});
