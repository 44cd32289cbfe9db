import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approveCall,
  cancelRun,
  denyCall,
  invocationStatus,
  runOutcome,
  runStatus,
  submitRun,
} from '../../src/restate.js';
import { Session } from '../../src/session/session.js';
import { openStore } from '../../src/stores/open-store.js';
import { assertLoopInvariants } from '../../src/testing/index.js';
import { type Cluster, startCluster } from './support/cluster.js';
import { checkEffects, storedJournal } from './support/journal-checks.js';

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

  it('takes a task of content parts, journaled as parts; a malformed task fails at once, not on every retry', async () => {
    const parts = [
      { type: 'text' as const, text: 'look at this' },
      { type: 'image' as const, mediaType: 'image/png', data: Buffer.from('not really a png').toString('base64') },
    ];
    const invocation = await submitRun(cluster.ingressUrl, 'parts-1', parts);
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 30_000);
    expect(outcome).toMatchObject({ status: 'done' });
    const journal = await storedJournal(cluster.store, 'parts-1');
    expect(journal.find((entry) => entry.type === 'user_message')).toEqual({ type: 'user_message', content: parts });

    const bad = [{ type: 'image' as const, mediaType: 'image/bmp', data: 'AAAA' }];
    const failed = await submitRun(cluster.ingressUrl, 'parts-2', bad);
    await expect(within(runOutcome(cluster.ingressUrl, failed), 30_000)).rejects.toThrow(
      /task part 0 mediaType: must be one of image\/png/,
    );
  });
});

/** Polls `runStatus` until `callId` waits for a decision. */
async function untilWaiting(sessionId: string, callId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await runStatus(cluster.ingressUrl, sessionId);
    if (status.waiting.includes(callId)) return;
    if (Date.now() > deadline)
      throw new Error(`${callId} never waited: ${JSON.stringify(status)}\n${cluster.outputs()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('agent-harness/restate: approval, cancellation, divergence, a server restart', { timeout: 120_000 }, () => {
  it('waits for approval on an awakeable; approveCall runs the call once', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'ask-1', 'ask1');
    await untilWaiting('ask-1', 'call_1');
    expect(cluster.effectLines().some((line) => line.startsWith('start ask1 '))).toBe(false);
    await approveCall(cluster.ingressUrl, 'ask-1', 'call_1');
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 30_000);
    expect(outcome).toMatchObject({ status: 'done', response: 'done after 2 calls' });
    checkEffects(await storedJournal(cluster.store, 'ask-1'), 'ask1', cluster.effectLines());
  });

  it('denyCall answers the model "Error: denied: <reason>", and the call never runs', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'ask-2', 'ask2');
    await untilWaiting('ask-2', 'call_1');
    await denyCall(cluster.ingressUrl, 'ask-2', 'call_1', 'not today');
    expect(await within(runOutcome(cluster.ingressUrl, invocation), 30_000)).toMatchObject({ status: 'done' });
    const journal = await storedJournal(cluster.store, 'ask-2');
    expect(journal).toContainEqual(
      expect.objectContaining({ type: 'tool_result', callId: 'call_1', content: 'Error: denied: not today' }),
    );
    expect(cluster.effectLines().some((line) => line.startsWith('start ask2 '))).toBe(false);
  });

  it('refuses a decision for a call that does not wait, naming the session and the calls that do', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'ask-3', 'ask3');
    await untilWaiting('ask-3', 'call_1');
    const refused = await approveCall(cluster.ingressUrl, 'ask-3', 'call_9').catch((error: unknown) => error);
    expect(refused).toMatchObject({ reason: 'restate_error' });
    expect(String(refused)).toMatch(/session 'ask-3' has no call 'call_9' waiting for a decision \(waiting: call_1\)/);
    await approveCall(cluster.ingressUrl, 'ask-3', 'call_1');
    expect(await within(runOutcome(cluster.ingressUrl, invocation), 30_000)).toMatchObject({ status: 'done' });
  });

  it('an approval that arrives after every worker was restarted finishes the run (the wait needs no process)', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'ask-4', 'ask4');
    await untilWaiting('ask-4', 'call_1');
    await cluster.replaceWorkers(2);
    await approveCall(cluster.ingressUrl, 'ask-4', 'call_1');
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 30_000);
    expect(outcome).toMatchObject({ status: 'done', response: 'done after 2 calls' });
    checkEffects(await storedJournal(cluster.store, 'ask-4'), 'ask4', cluster.effectLines());
  });

  it('cancelRun aborts the run: the tool in flight sees its signal, the journal ends aborted', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'cancel-1', 'slow1');
    const deadline = Date.now() + 30_000;
    while (!cluster.effectLines().some((line) => line.startsWith('start slow1 1 '))) {
      if (Date.now() > deadline) throw new Error(`the tool never started\n${cluster.outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cancelRun(cluster.ingressUrl, 'cancel-1');
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 30_000);
    expect(outcome).toMatchObject({ status: 'error', reason: 'aborted' });
    const journal = await storedJournal(cluster.store, 'cancel-1');
    assertLoopInvariants(journal);
    expect(journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    expect(cluster.effectLines()).toContain('aborted slow1 1');
    expect(cluster.effectLines().some((line) => line.startsWith('end slow1 1 '))).toBe(false);
  });

  it('reports a worker whose code changed under a recorded run as divergence, naming the session and the entry, and keeps the run for the right code', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'ask-div', 'askdiv');
    await untilWaiting('ask-div', 'call_1');
    // The new workers deny `effect` by policy: the run they execute again takes another path.
    await cluster.replaceWorkers(2, { DENY: '1' });
    await approveCall(cluster.ingressUrl, 'ask-div', 'call_1');
    const deadline = Date.now() + 30_000;
    let status = await invocationStatus(cluster.server.adminUrl, invocation);
    while (!status?.lastFailure?.includes('divergence')) {
      if (Date.now() > deadline)
        throw new Error(`no divergence reported: ${JSON.stringify(status)}\n${cluster.outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await invocationStatus(cluster.server.adminUrl, invocation);
    }
    expect(status.lastFailure).toMatch(
      /divergence in session 'ask-div' at journal entry \d+: the run stored '\w+', but this worker's code made '\w+'/,
    );
    // Nothing the diverged executions made was stored.
    expect(
      (await storedJournal(cluster.store, 'ask-div')).filter((entry) => entry.type === 'tool_result'),
    ).toHaveLength(0);
    // Workers with the code that started the run finish it: the run was kept, not failed.
    await cluster.replaceWorkers(2);
    expect(await within(runOutcome(cluster.ingressUrl, invocation), 60_000)).toMatchObject({ status: 'done' });
    checkEffects(await storedJournal(cluster.store, 'ask-div'), 'askdiv', cluster.effectLines());
  });

  it('a Restate server killed and restarted mid-run finishes the run, no effect twice', async () => {
    const invocation = await submitRun(cluster.ingressUrl, 'restart-1', 'restart1');
    const deadline = Date.now() + 30_000;
    while (!cluster.effectLines().some((line) => line.startsWith('start restart1 1 '))) {
      if (Date.now() > deadline) throw new Error(`the tool never started\n${cluster.outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await cluster.server.restart();
    const outcome = await within(runOutcome(cluster.ingressUrl, invocation), 60_000);
    expect(outcome).toMatchObject({ status: 'done', response: 'done after 2 calls' });
    checkEffects(await storedJournal(cluster.store, 'restart-1'), 'restart1', cluster.effectLines());
  });
});
