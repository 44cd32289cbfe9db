/** What {@link lagSummary} reads of a `perf_hooks` histogram (values in nanoseconds). */
export interface NanosecondHistogram {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly count?: number;
  percentile(percentile: number): number;
}

/** The event loop's delay, in milliseconds. */
export interface LagSummary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

const NS_PER_MS = 1e6;

/**
 * A `monitorEventLoopDelay` histogram as lag in milliseconds. Its samples are the time between
 * firings of a timer due every `resolutionMs`, so the lag is each figure less that period
 * (never below 0). An empty histogram (no sample: the loop never got round to its timer) reads
 * as zeros rather than Node's sentinels.
 */
export function lagSummary(histogram: NanosecondHistogram, resolutionMs: number): LagSummary {
  if (histogram.count === 0 || !Number.isFinite(histogram.mean)) return { p50: 0, p99: 0, max: 0, mean: 0 };
  const lag = (ns: number): number => Math.max(0, ns / NS_PER_MS - resolutionMs);
  return {
    p50: lag(histogram.percentile(50)),
    p99: lag(histogram.percentile(99)),
    max: lag(histogram.max),
    mean: lag(histogram.mean),
  };
}
