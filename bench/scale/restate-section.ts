import { defaultLatency } from './latency.js';
import type { ScaleOptions } from './options.js';
import { startBenchCluster } from './restate-cluster.js';
import { bareInvocation, bareUntil, driveRuns } from './restate-load.js';
import type { RestateScaleOptions } from './restate-options.js';
import { type RestateFigures, restateFigures, restateTable } from './restate-table.js';
import type { ScaleWorkload } from './scale-workload.js';
import type { SectionReport } from './section.js';

/** Bare invocations, and runs one at a time, timed with nothing else running, before the load. */
const ALONE_INVOCATIONS = 10;

/**
 * Invocations per HTTP/2 connection a worker takes: Restate balances over its connections, and
 * the TCP balancer spreads connections over workers, so connections must be several per worker.
 */
export function streamsPerConnection(inFlightPerWorker: number): number {
  return Math.max(1, Math.ceil(inFlightPerWorker / 5));
}

async function measureWorkers(
  workers: number,
  options: ScaleOptions,
  restate: RestateScaleOptions,
  workload: ScaleWorkload,
): Promise<RestateFigures> {
  const inFlight = workers * restate.inFlightPerWorker;
  console.error(`restate: ${workers} worker(s), ${inFlight} runs in flight, ${restate.runs} runs`);
  const cluster = await startBenchCluster(workers, options, streamsPerConnection(restate.inFlightPerWorker));
  const bare = (): Promise<void> => bareInvocation(cluster.ingressUrl, restate.bareSteps);
  try {
    // Warm-up: as many runs as are in flight, and some bare invocations, unmeasured.
    await driveRuns(cluster.ingressUrl, workload, { first: restate.runs, runs: inFlight, inFlight });
    for (let i = 0; i < ALONE_INVOCATIONS; i++) await bare();
    await cluster.baseline();
    for (let i = 0; i < ALONE_INVOCATIONS; i++) await bare();
    await driveRuns(cluster.ingressUrl, workload, {
      first: restate.runs + inFlight,
      runs: ALONE_INVOCATIONS,
      inFlight: 1,
    });
    const alone = await cluster.reports();
    await cluster.baseline();
    const load = driveRuns(cluster.ingressUrl, workload, { first: 0, runs: restate.runs, inFlight });
    await bareUntil(cluster.ingressUrl, restate.bareSteps, workers, load);
    const reports = await cluster.reports();
    return restateFigures({
      workers,
      inFlight,
      turnsPerRun: workload.toolTurns + 1,
      load: await load,
      reports,
      bareAloneMs: alone.flatMap((report) => report.bareStepMs),
      stepAloneMs: alone.flatMap((report) => report.stepOverheadMs),
    });
  } finally {
    await cluster.stop();
  }
}

/**
 * Restate scale-out: for each worker count, a local Restate server (`startDevServer`) and that
 * many worker processes behind one TCP balancer, registered as one deployment; a closed loop
 * keeps `inFlightPerWorker` runs per worker in flight through the ingress, while a bare service
 * in the same workers times sequential `ctx.run(() => null)` steps beside them.
 */
export async function restateScale(options: ScaleOptions, restate: RestateScaleOptions): Promise<SectionReport> {
  const workload: ScaleWorkload = {
    toolTurns: options.toolTurns,
    deltas: options.deltas,
    latency: defaultLatency(options.seed),
  };
  const results: RestateFigures[] = [];
  for (const workers of restate.workers) results.push(await measureWorkers(workers, options, restate, workload));
  return {
    title: `Restate: ${restate.runs} runs per worker count, ${restate.inFlightPerWorker} in flight per worker, bare service ${restate.bareSteps} steps per invocation`,
    markdown: restateTable(results),
    results,
  };
}
