import { runOutcome, submitRun } from '../../src/restate.js';
import { PROMPT } from '../workload.js';
import { BARE_SERVICE } from './restate-worker-report.js';
import { finalAnswerText, type ScaleWorkload } from './scale-workload.js';

/** A closed loop of runs: how long it took and each run's time from submission to outcome. */
export interface RunLoad {
  readonly runs: number;
  readonly wallMs: number;
  /** Per run, from `submitRun` to `runOutcome`'s answer, ms. */
  readonly runMs: readonly number[];
}

/**
 * Runs sessions `r<first>` … `r<first + runs - 1>` through Restate's ingress, keeping `inFlight`
 * of them submitted and unfinished at all times; every run must end with the workload's answer.
 */
export async function driveRuns(
  ingressUrl: string,
  workload: ScaleWorkload,
  load: { readonly first: number; readonly runs: number; readonly inFlight: number },
): Promise<RunLoad> {
  const expected = finalAnswerText(workload.deltas);
  const runMs: number[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < load.runs) {
      const session = `r${load.first + next++}`;
      const asked = performance.now();
      const outcome = await runOutcome(ingressUrl, await submitRun(ingressUrl, session, PROMPT));
      if (outcome.status !== 'done' || outcome.response !== expected) {
        throw new Error(`bench:scale: run ${session} ended ${JSON.stringify(outcome).slice(0, 300)}`);
      }
      runMs.push(performance.now() - asked);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(load.inFlight, load.runs) }, lane));
  return { runs: load.runs, wallMs: performance.now() - start, runMs };
}

/** Invokes the bare service once: `steps` sequential `ctx.run(() => null)`. */
export async function bareInvocation(ingressUrl: string, steps: number): Promise<void> {
  const response = await fetch(`${ingressUrl}/${BARE_SERVICE}/steps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(steps),
  });
  const text = await response.text();
  if (!response.ok || Number(text) !== steps) {
    throw new Error(`bench:scale: the bare service answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/** Keeps `lanes` bare invocations going, one after another in each lane, until `done` settles. */
export async function bareUntil(
  ingressUrl: string,
  steps: number,
  lanes: number,
  done: Promise<unknown>,
): Promise<void> {
  let over = false;
  const finished = done.finally(() => {
    over = true;
  });
  const lane = async (): Promise<void> => {
    while (!over) await bareInvocation(ingressUrl, steps);
  };
  await Promise.all([finished, ...Array.from({ length: lanes }, lane)]);
}
