import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunOutcome, runOutcome, submitRun } from '../../src/restate.js';
import { prng } from '../stores/support/prng.js';
import { type Cluster, startCluster, type WorkerProcess } from './support/cluster.js';
import { checkEffects, storedJournal } from './support/journal-checks.js';

/** Kill rounds: 20 by default, 200 with TEST_DEPTH=deep. */
const ROUNDS = process.env.TEST_DEPTH === 'deep' ? 200 : 20;
const SEED = Number(process.env.KILL_SEED ?? Date.now() % 100_000);

let cluster: Cluster;
beforeAll(async () => {
  // Four tool turns (effect, look, effect, look); each model turn and tool call takes a while,
  // so that a kill lands mid-turn or mid-call.
  cluster = await startCluster(2, { TURNS: '4', MODEL_MS: '40', TOOL_MS: '60' });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms:\n${cluster.outputs()}`)), ms),
    ),
  ]);
}

/** The worker that last started an execution of `tag`'s run, if one did. */
function runningWorker(tag: string): WorkerProcess | undefined {
  return cluster.workers.find((worker) => worker.output().includes(`[agent/${tag}/run]`));
}

describe('agent-harness/restate: workers killed at random instants', () => {
  it(`kill -9 the worker running two runs, ${ROUNDS} times (seed ${SEED}): another worker finishes every run, no effect runs twice`, {
    timeout: ROUNDS * 30_000,
  }, async () => {
    const next = prng(SEED);
    let executedAgain = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const tags = [`r${round}a`, `r${round}b`];
      const invocations = await Promise.all(tags.map((tag) => submitRun(cluster.ingressUrl, tag, tag)));
      await new Promise((resolve) => setTimeout(resolve, next() * 500));
      const victim = runningWorker(tags[0] as string) ?? cluster.workers[Math.floor(next() * cluster.workers.length)];
      if (victim !== undefined) await cluster.killWorker(victim);
      await cluster.startWorker();
      const outcomes: RunOutcome[] = await Promise.all(
        invocations.map((id, i) => within(runOutcome(cluster.ingressUrl, id), 60_000, `round ${round} ${tags[i]}`)),
      );
      for (const [i, tag] of tags.entries()) {
        expect(outcomes[i], `round ${round}, seed ${SEED}`).toMatchObject({ sessionId: tag, status: 'done' });
        checkEffects(await storedJournal(cluster.store, tag), tag, cluster.effectLines());
        if (
          cluster.outputs().includes(`[agent/${tag}/run]`) &&
          cluster.outputs().match(new RegExp(`\\[agent/${tag}/run\\].*Replaying`))
        ) {
          executedAgain++;
        }
      }
    }
    console.log(`kill rounds: ${ROUNDS}, runs executed again: ${executedAgain}`);
    // The kills must have landed: some runs were executed again on another worker.
    expect(executedAgain).toBeGreaterThan(0);
  });
});
