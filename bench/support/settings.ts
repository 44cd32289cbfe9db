/** How hard the run works: `--quick` keeps the whole run under a minute. */
export interface BenchSettings {
  readonly quick: boolean;
  /** Turn counts for case 1. */
  readonly turnCounts: readonly number[];
  /** Turn counts for case 6, the fixed cost of a run (one answer; one tool turn and the answer). */
  readonly fixedCounts: readonly number[];
  /** CPU milliseconds each contender runs before case 1 measures it (JIT and heap sizing settle). */
  readonly warmupMs: number;
  /** Samples thrown away before measuring. */
  readonly warmup: number;
  /** Samples kept per figure. */
  readonly samples: number;
  /** CPU milliseconds of work each sample aims for. */
  readonly sampleMs: number;
  /** Concurrent sessions in case 2. */
  readonly sessions: number;
  /** Sessions kept per heap sample in case 3. */
  readonly heapSessions: number;
  /** Samples kept in cases 2 and 3 (each is a whole batch of sessions). */
  readonly batchSamples: number;
  /** Events per EventBus sample (case 4). */
  readonly busEvents: number;
  /** Journal entries replayed (case 5). */
  readonly journalEntries: number;
}

/** Settings for a full or a `--quick` run. */
export function benchSettings(quick: boolean): BenchSettings {
  return quick
    ? {
        quick,
        turnCounts: [10, 100, 1000],
        fixedCounts: [0, 1],
        warmupMs: 1500,
        warmup: 1,
        samples: 7,
        sampleMs: 70,
        sessions: 1000,
        heapSessions: 300,
        batchSamples: 2,
        busEvents: 50_000,
        journalEntries: 100_000,
      }
    : {
        quick,
        turnCounts: [10, 100, 1000],
        fixedCounts: [0, 1],
        warmupMs: 4000,
        warmup: 1,
        samples: 15,
        sampleMs: 250,
        sessions: 1000,
        heapSessions: 1000,
        batchSamples: 5,
        busEvents: 200_000,
        journalEntries: 100_000,
      };
}
