import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOutcome, submitRun } from '../../src/restate.js';
import { Session } from '../../src/session/session.js';
import { openStore } from '../../src/stores/open-store.js';
import { assertLoopInvariants } from '../../src/testing/index.js';
import { type Cluster, startCluster } from './support/cluster.js';

let cluster: Cluster;

/** `promise`, or a failure that shows what the workers printed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no outcome in ${ms} ms:\n${cluster.outputs()}`)), ms),
    ),
  ]);
}
beforeAll(async () => {
  cluster = await startCluster(2);
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('agent-harness/restate: a run on Restate', { timeout: 120_000 }, () => {
  it('runs a session to its answer, each tool once, and stores the same journal an in-process run keeps', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'plain-1', 'do two things');
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 30_000);
    expect(outcome).toMatchObject({
      sessionId: 'plain-1',
      status: 'done',
      response: 'done after 2 calls',
    });
    expect(cluster.effectLines().filter((line) => line.startsWith('start do two things 1'))).toHaveLength(1);
    const store = await openStore(cluster.store);
    try {
      const session = await Session.load(store, 'plain-1');
      assertLoopInvariants(session.journal);
      expect(session.journal.filter((entry) => entry.type === 'tool_result')).toHaveLength(2);
      expect(outcome.entries).toBe(session.journal.length);
      await session.close();
    } finally {
      await store.close();
    }
  });
});
