/** How many samples to take and how much work each one does. */
export interface SamplePlan {
  /** Samples taken and thrown away first (JIT warm-up). */
  readonly warmup: number;
  /** Samples kept. */
  readonly samples: number;
  /** Minimum units of work (turns, events, entries) per sample. */
  readonly unitsPerSample: number;
}

/** Runs `once` (which returns how many units it did) until a sample holds enough units. */
async function fill(once: () => Promise<number> | number, units: number): Promise<number> {
  let done = 0;
  while (done < units) done += await once();
  return done;
}

// No forced collection before a sample: after `gc()` V8 runs the next few hundred turns slower
// (docs/performance.md, Method), which would make short samples measure the collector's wake.

/**
 * CPU microseconds (user + system, all threads, from `process.cpuUsage`) per unit of work,
 * one figure per kept sample.
 */
export async function cpuMicrosPerUnit(once: () => Promise<number> | number, plan: SamplePlan): Promise<number[]> {
  const figures: number[] = [];
  for (let i = 0; i < plan.warmup + plan.samples; i++) {
    const before = process.cpuUsage();
    const units = await fill(once, plan.unitsPerSample);
    const used = process.cpuUsage(before);
    if (i >= plan.warmup) figures.push((used.user + used.system) / units);
  }
  return figures;
}

/** Units of work per wall-clock second, one figure per kept sample. */
export async function unitsPerSecond(once: () => Promise<number> | number, plan: SamplePlan): Promise<number[]> {
  const figures: number[] = [];
  for (let i = 0; i < plan.warmup + plan.samples; i++) {
    const start = performance.now();
    const units = await fill(once, plan.unitsPerSample);
    const ms = performance.now() - start;
    if (i >= plan.warmup) figures.push((units * 1000) / ms);
  }
  return figures;
}

/** A full collection when node runs with `--expose-gc`; a no-op otherwise. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc !== undefined) {
    gc();
    gc();
  }
}

/** Whether heap figures can be trusted (`--expose-gc` given). */
export function canCollectGarbage(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}
