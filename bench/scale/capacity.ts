import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectGarbage } from '../support/measure.js';
import { type LagSummary, lagSummary } from './lag.js';
import type { ScaleContender } from './scale-workload.js';

/** What one contender measured in its own process. */
export interface CapacityResult {
  readonly contender: string;
  readonly sessions: number;
  /** Model turns made by all sessions. */
  readonly turns: number;
  /** The most sessions started and not yet finished at one time. */
  readonly peakInFlight: number;
  readonly wallMs: number;
  /** User + system CPU of the whole process (GC threads included). */
  readonly cpuMs: number;
  /** Peak RSS less the RSS after a full collection before the sessions started. */
  readonly rssGrowthBytes: number;
  /** The same for the JS heap's `heapUsed`. */
  readonly heapGrowthBytes: number;
  readonly lag: LagSummary;
}

const LAG_RESOLUTION_MS = 1;
const SAMPLE_EVERY_MS = 5;

/**
 * Starts `sessions` sessions at once and waits for all of them, measuring CPU, peak memory and
 * event-loop lag. A batch of min(sessions, 1000) runs first, unmeasured, so the code is
 * compiled and the heap sized; then a full collection and the baselines. Memory is sampled on a
 * timer and as sessions finish.
 */
export async function measureCapacity(contender: ScaleContender, sessions: number): Promise<CapacityResult> {
  const warmUp = Math.min(1000, sessions);
  await Promise.all(Array.from({ length: warmUp }, (_, i) => contender.run(sessions + i)));
  collectGarbage();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sample = (): void => {
    const { rss, heapUsed } = process.memoryUsage();
    if (rss > peakRss) peakRss = rss;
    if (heapUsed > peakHeap) peakHeap = heapUsed;
  };
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  let inFlight = 0;
  let peakInFlight = 0;
  let turns = 0;
  const finished = (sessionTurns: number): void => {
    if (inFlight === peakInFlight) sample();
    inFlight--;
    turns += sessionTurns;
  };
  histogram.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const runs: Promise<void>[] = new Array(sessions);
  for (let session = 0; session < sessions; session++) {
    inFlight++;
    runs[session] = contender.run(session).then(finished);
  }
  peakInFlight = inFlight;
  sample();
  await Promise.all(runs);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  histogram.disable();
  clearInterval(sampler);
  sample();
  return {
    contender: contender.name,
    sessions,
    turns,
    peakInFlight,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    rssGrowthBytes: peakRss - baseline.rss,
    heapGrowthBytes: peakHeap - baseline.heapUsed,
    lag: lagSummary(histogram, LAG_RESOLUTION_MS),
  };
}
