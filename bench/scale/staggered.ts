import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectGarbage } from '../support/measure.js';
import { type LagSummary, lagSummary } from './lag.js';
import type { ScaleContender } from './scale-workload.js';

/** How a staggered run brings sessions in and how long it measures. */
export interface StaggeredPlan {
  /** Sessions kept in flight once the ramp is over. */
  readonly inFlight: number;
  /** Sessions started per second during the ramp. */
  readonly arrivalPerSecond: number;
  /** Wait after the ramp before measuring (the start-up allocations settle). */
  readonly settleMs: number;
  /** The steady-state window measured. */
  readonly windowMs: number;
}

/** What one staggered run measured, over its steady-state window only. */
export interface StaggeredResult {
  readonly contender: string;
  readonly inFlight: number;
  readonly arrivalPerSecond: number;
  /** From the first arrival until `inFlight` sessions were in flight (or the ramp gave up). */
  readonly rampMs: number;
  /** The fewest sessions in flight at a sample of the window (below `inFlight` if the ramp gave up). */
  readonly minInFlight: number;
  readonly windowMs: number;
  /** Model turns of the sessions that finished in the window. */
  readonly turns: number;
  /** User + system CPU of the process in the window. */
  readonly cpuMs: number;
  /** Peak RSS in the window less the RSS after a full collection before the first arrival. */
  readonly rssGrowthBytes: number;
  /** The same for `heapUsed`. */
  readonly heapGrowthBytes: number;
  readonly lag: LagSummary;
  /** Samples in the lag histogram: 0 when the loop never ran its 1 ms timer in the window. */
  readonly lagSamples: number;
}

const LAG_RESOLUTION_MS = 1;
const TICK_MS = 5;

/**
 * Sessions started by `elapsedMs` at `perSecond` arrivals a second (the first at 0), so that a
 * ramp delayed by a busy loop catches up rather than stretching.
 */
export function arrivalsDue(perSecond: number, elapsedMs: number): number {
  return Math.floor((perSecond * elapsedMs) / 1000) + 1;
}

/**
 * Sessions arrive at `arrivalPerSecond` until `inFlight` are in flight; from then on each one
 * that finishes is replaced at once. After `settleMs`, CPU, peak RSS and `heapUsed` and the
 * event loop's lag are measured for `windowMs`. A ramp that has not reached `inFlight` after
 * three times its nominal length (the contender finishes sessions as fast as they arrive) ends
 * there: the window then holds what was in flight (see {@link StaggeredResult.minInFlight}).
 * Sessions still in flight at the end are left running: `drain` waits for them.
 */
export async function measureStaggered(
  contender: ScaleContender,
  plan: StaggeredPlan,
  firstSession: number,
): Promise<{ result: StaggeredResult; drain: Promise<void> }> {
  collectGarbage();
  const baseline = process.memoryUsage();
  let next = firstSession;
  let inFlight = 0;
  let arrived = 0;
  let replacing = false;
  let stopped = false;
  let windowOpen = false;
  let turns = 0;
  let minInFlight = Number.POSITIVE_INFINITY;
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  let failure: unknown;
  let drained: (() => void) | undefined;
  const drain = new Promise<void>((resolve) => {
    drained = resolve;
  });
  const sample = (): void => {
    const { rss, heapUsed } = process.memoryUsage();
    if (rss > peakRss) peakRss = rss;
    if (heapUsed > peakHeap) peakHeap = heapUsed;
    if (inFlight < minInFlight) minInFlight = inFlight;
  };
  const start = (): void => {
    inFlight++;
    contender.run(next++).then(finished, (error: unknown) => {
      failure ??= error;
      finished(0);
    });
  };
  function finished(sessionTurns: number): void {
    inFlight--;
    if (windowOpen) turns += sessionTurns;
    if (replacing && !stopped && failure === undefined) start();
    else if (stopped && inFlight === 0) drained?.();
  }
  const began = performance.now();
  const giveUpMs = (3000 * plan.inFlight) / plan.arrivalPerSecond + 1000;
  const rampMs = await new Promise<number>((resolve) => {
    const ramp = (): void => {
      const elapsed = performance.now() - began;
      const due = arrivalsDue(plan.arrivalPerSecond, elapsed);
      while (arrived < due && inFlight < plan.inFlight) {
        arrived++;
        start();
      }
      if (inFlight >= plan.inFlight || elapsed >= giveUpMs || failure !== undefined) {
        clearInterval(ticker);
        replacing = true;
        resolve(elapsed);
      }
    };
    const ticker = setInterval(ramp, TICK_MS);
    ramp();
  });
  await new Promise((resolve) => setTimeout(resolve, plan.settleMs));
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  const sampler = setInterval(sample, TICK_MS);
  windowOpen = true;
  histogram.enable();
  const cpu = process.cpuUsage();
  const opened = performance.now();
  sample();
  await new Promise((resolve) => setTimeout(resolve, plan.windowMs));
  sample();
  const windowMs = performance.now() - opened;
  const used = process.cpuUsage(cpu);
  histogram.disable();
  clearInterval(sampler);
  windowOpen = false;
  stopped = true;
  if (inFlight === 0) drained?.();
  if (failure !== undefined) throw failure;
  return {
    result: {
      contender: contender.name,
      inFlight: plan.inFlight,
      arrivalPerSecond: plan.arrivalPerSecond,
      rampMs,
      minInFlight,
      windowMs,
      turns,
      cpuMs: (used.user + used.system) / 1000,
      rssGrowthBytes: peakRss - baseline.rss,
      heapGrowthBytes: peakHeap - baseline.heapUsed,
      lag: lagSummary(histogram, LAG_RESOLUTION_MS),
      lagSamples: histogram.count,
    },
    drain,
  };
}
