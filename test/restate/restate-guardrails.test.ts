import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOutcome, submitRun } from '../../src/restate.js';
import { type Cluster, startCluster } from './support/cluster.js';
import { checkEffects, storedJournal } from './support/journal-checks.js';

let cluster: Cluster;
let logDir: string;
let guardrailLog: string;
beforeAll(async () => {
  // Three tool turns (effect, look, effect), each call taking 1.5 s: time to kill the worker
  // during the third call, after the input's and two results' guardrails were checked.
  logDir = mkdtempSync(join(tmpdir(), 'agent-harness-guardrails-'));
  guardrailLog = join(logDir, 'checks.log');
  cluster = await startCluster(1, { TURNS: '3', TOOL_MS: '1500', GUARDRAILS: guardrailLog });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  rmSync(logDir, { recursive: true, force: true });
});

/** The guardrail checks made so far for `session`: `STAGE CALL` per check. */
function checks(session: string): string[] {
  let text = '';
  try {
    text = readFileSync(guardrailLog, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.startsWith('check ') && line.split(' ')[2] === session)
    .map((line) =>
      line
        .split(' ')
        .slice(1, 4)
        .filter((_, i) => i !== 1)
        .join(' '),
    );
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${ms} ms\n${cluster.outputs()}`);
}

describe('agent-harness/restate: guardrails are durable steps', { timeout: 120_000 }, () => {
  it('a worker killed mid-run: the execution that finishes it does not run a recorded guardrail again', async () => {
    const tag = 'guarded';
    const invocation = await submitRun(cluster.ingressUrl, tag, tag);
    // The third call (an effect) has started: the input and the first two results were checked.
    await until(() => cluster.effectLines().some((line) => line.startsWith(`start ${tag} 3 `)), 'effect 3 started');
    expect(checks(tag)).toEqual(['input -', 'toolResult call_1', 'toolResult call_2']);
    const [victim] = cluster.workers;
    if (victim === undefined) throw new Error('no worker');
    await cluster.killWorker(victim);
    await cluster.startWorker();

    expect(await runOutcome(cluster.ingressUrl, invocation)).toMatchObject({ sessionId: tag, status: 'done' });
    expect(cluster.outputs()).toMatch(new RegExp(`\\[agent/${tag}/run\\].*Replaying`)); // executed again
    // Each guardrail ran once per value: the recorded verdicts came back from Restate. The third
    // result (in doubt after the kill, answered without running) is checked by the new worker.
    expect(checks(tag)).toEqual(['input -', 'toolResult call_1', 'toolResult call_2', 'toolResult call_3']);
    const journal = await storedJournal(cluster.store, tag);
    checkEffects(journal, tag, cluster.effectLines());
    const verdicts = journal.filter((entry) => entry.type === 'guardrail');
    expect(verdicts.map((entry) => ('callId' in entry ? entry.callId : undefined) ?? entry.stage)).toEqual([
      'input',
      'call_1',
      'call_2',
      'call_3',
    ]);
  });

  it('results of parallel calls checked in the order they settled: the replay asks the same steps', async () => {
    const tag = 'parallel';
    const invocation = await submitRun(cluster.ingressUrl, tag, tag);
    await until(() => cluster.effectLines().some((line) => line.startsWith(`start ${tag} 3 `)), 'effect 3 started');
    expect(checks(tag)).toEqual(['input -', 'toolResult call_2', 'toolResult call_1']);
    const [victim] = cluster.workers;
    if (victim === undefined) throw new Error('no worker');
    await cluster.killWorker(victim);
    await cluster.startWorker();

    expect(await runOutcome(cluster.ingressUrl, invocation)).toMatchObject({ sessionId: tag, status: 'done' });
    expect(checks(tag)).toEqual(['input -', 'toolResult call_2', 'toolResult call_1', 'toolResult call_3']);
    checkEffects(await storedJournal(cluster.store, tag), tag, cluster.effectLines());
  });
});
