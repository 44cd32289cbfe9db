import { benchDir } from '../support/bench-dir.js';
import { canCollectGarbage } from '../support/measure.js';
import { bareScaleContender } from './bare-scale.js';
import { measureCapacity } from './capacity.js';
import { CAPACITY_TARGETS } from './capacity-table.js';
import { harnessScaleContender } from './harness-scale.js';
import { largestPassing } from './largest-passing.js';
import { defaultLatency } from './latency.js';
import { type InProcessMode, parseScaleOptions, type ScaleOptions } from './options.js';
import type { ScaleContender, ScaleWorkload } from './scale-workload.js';
import { skeletonScaleContender } from './skeleton-scale.js';
import { measureStaggered } from './staggered.js';
import type { MaxInFlightSummary } from './staggered-table.js';

/** What `bench/peers/ai-sdk-scale.ts` exports. */
interface PeerModule {
  aiSdkScaleContender(workload: ScaleWorkload): ScaleContender;
}

async function contenderFor(key: string, workload: ScaleWorkload): Promise<ScaleContender> {
  if (key === 'harness') return harnessScaleContender(workload);
  if (key === 'bare') return bareScaleContender(workload);
  if (key === 'skeleton') return skeletonScaleContender(workload);
  if (key === 'ai-generate-text') {
    // Computed, so that the root type-check does not need the peers' packages.
    const path = new URL('peers/ai-sdk-scale.ts', benchDir()).href;
    return ((await import(path)) as PeerModule).aiSdkScaleContender(workload);
  }
  throw new Error(`bench:scale: unknown contender ${key}`);
}

/** Settle time of a staggered run, and the window of each `max-n` probe (at most `windowMs`). */
const SETTLE_MS = 1000;
const PROBE_WINDOW_MS = 3000;
/** The first size `max-n` tries; it doubles from there. */
const FIRST_PROBE = 32;

/**
 * The largest number of sessions in flight (≤ `options.sessions`) at which the steady-state p99
 * lag is within the target. Each probe ramps at ten times its size a second (a session lives
 * ~0.15 s), measures, and waits for its sessions to finish before the next.
 */
async function maxInFlight(
  contender: ScaleContender,
  options: ScaleOptions,
  first: number,
): Promise<MaxInFlightSummary> {
  let next = first;
  const { largest, probes } = await largestPassing(
    async (n) => {
      const plan = {
        inFlight: n,
        arrivalPerSecond: Math.max(100, 10 * n),
        settleMs: SETTLE_MS,
        windowMs: Math.min(options.windowMs, PROBE_WINDOW_MS),
      };
      const { result, drain } = await measureStaggered(contender, plan, next);
      next += 1_000_000;
      await drain;
      const passed = result.lagSamples > 0 && result.lag.p99 <= CAPACITY_TARGETS.lagP99Ms && result.minInFlight >= n;
      console.error(`  ${contender.name}: ${n} in flight: p99 ${result.lag.p99.toFixed(1)} ms ${passed ? '✓' : '✗'}`);
      return { passed, detail: result };
    },
    FIRST_PROBE,
    options.sessions,
  );
  return { contender: contender.name, largest, limit: options.sessions, probes };
}

async function measure(mode: InProcessMode, contender: ScaleContender, options: ScaleOptions): Promise<object> {
  if (mode === 'burst') return measureCapacity(contender, options.sessions);
  // Warm-up as for a burst: compiled code and a sized heap before the first measurement.
  const warmUp = Math.min(1000, options.sessions);
  await Promise.all(Array.from({ length: warmUp }, (_, i) => contender.run(options.sessions + i)));
  if (mode === 'max-n') return maxInFlight(contender, options, options.sessions + warmUp);
  const plan = {
    inFlight: options.sessions,
    arrivalPerSecond: options.arrival,
    settleMs: SETTLE_MS,
    windowMs: options.windowMs,
  };
  // The sessions still in flight are not waited for: the process exits once it has reported.
  return (await measureStaggered(contender, plan, options.sessions + warmUp)).result;
}

/**
 * A child process of `bench:scale`: `contender-process.js KEY MODE FLAGS…` runs one contender in
 * one mode (so that its RSS is its own) and writes its result as JSON on stdout.
 */
async function main(): Promise<void> {
  const [key = '', mode = '', ...flags] = process.argv.slice(2);
  if (!canCollectGarbage()) throw new Error('bench:scale: run node with --expose-gc');
  const options = parseScaleOptions(flags);
  const workload: ScaleWorkload = {
    toolTurns: options.toolTurns,
    deltas: options.deltas,
    latency: defaultLatency(options.seed),
  };
  const contender = await contenderFor(key, workload);
  await contender.run(0); // a smoke run: the contender must finish the workload correctly
  if (!(options.modes as readonly string[]).includes(mode)) throw new Error(`bench:scale: unknown mode ${mode}`);
  const result = await measure(mode as InProcessMode, contender, options);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

await main();
