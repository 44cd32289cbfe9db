/** Median, minimum and maximum of a set of samples. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** The raw samples, in the order taken. */
  readonly samples: readonly number[];
}

/** Summarises samples; throws on an empty set (a benchmark that took no sample is a bug). */
export function summarise(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('summarise: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, samples: [...samples] };
}

/**
 * The `q`-quantile (0 ≤ q ≤ 1) of samples by the nearest-rank method: the smallest sample with
 * at least a fraction `q` of the samples at or below it. Throws on an empty set.
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error('quantile: no samples');
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile: q must be in [0, 1], got ${q}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] as number;
}
