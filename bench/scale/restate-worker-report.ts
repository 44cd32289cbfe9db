import type { StepTiming } from '../../src/restate.js';

/** The bare service's name: `POST /bare/steps` with K runs K sequential `ctx.run(() => null)`. */
export const BARE_SERVICE = 'bare';

/** What a bench worker measured between the bench's `baseline` and `report` messages. */
export interface WorkerReport {
  readonly pid: number;
  /** RSS after a full collection, once warmed up and idle. */
  readonly idleRssBytes: number;
  /** The highest RSS sampled since. */
  readonly peakRssBytes: number;
  /** The most agent executions (`run` invocations) open on this worker at one time. */
  readonly peakInFlight: number;
  /** Agent executions started. */
  readonly executions: number;
  /** User + system CPU of the worker process, ms. */
  readonly cpuMs: number;
  /** Per live durable step of the agent: what the step took beyond its action, ms. */
  readonly stepOverheadMs: readonly number[];
  /** Steps whose value was recorded before (re-executions): none when nothing failed. */
  readonly replayedSteps: number;
  /** Per `ctx.run(() => null)` of the bare service: from asking to having its value, ms. */
  readonly bareStepMs: readonly number[];
}

/** A message between the bench and a worker over the IPC channel. */
export type WorkerMessage =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'baseline' }
  | { readonly type: 'baseline-taken' }
  | { readonly type: 'report' }
  | { readonly type: 'report-taken'; readonly report: WorkerReport };

/** Sorts step timings into the overhead of each live step (`ms - actionMs`) and a count of replayed ones. */
export function stepOverheads(timings: readonly StepTiming[]): { overheadMs: number[]; replayed: number } {
  const overheadMs: number[] = [];
  let replayed = 0;
  for (const timing of timings) {
    if (timing.actionMs === undefined) replayed++;
    else overheadMs.push(Math.max(0, timing.ms - timing.actionMs));
  }
  return { overheadMs, replayed };
}

/** RSS growth over idle per run in flight at the peak, bytes; undefined when no run was in flight. */
export function rssPerInFlight(report: WorkerReport): number | undefined {
  if (report.peakInFlight === 0) return undefined;
  return Math.max(0, report.peakRssBytes - report.idleRssBytes) / report.peakInFlight;
}
