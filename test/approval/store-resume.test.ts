import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, type JournalEntry, type Message, openStore } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { nodeArgs } from '../support/script-bundles.js';
import { tempWorkspace } from '../support/workspace.js';

const child = fileURLToPath(new URL('./suspended-child.ts', import.meta.url));

/** Runs the child to its end; its events, and the messages of the model requests it made. */
function runChild(args: readonly string[]): Promise<{ events: AgentEvent[]; requests: Message[][] }> {
  const proc = spawn(process.execPath, [...nodeArgs(child), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (text: string) => {
    out += text;
  });
  proc.stderr.setEncoding('utf8').on('data', (text: string) => {
    err += text;
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) =>
    proc.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`child ${args[0]} exited ${code}: ${err}`));
      const lines = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; data: unknown });
      const requests = lines.find((line) => line.type === 'requests')?.data as Message[][];
      resolve({ events: lines.filter((line) => line.type !== 'requests') as AgentEvent[], requests });
    }),
  );
}

const effectsOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const asked = (events: readonly AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'tool_approval_request' ? [event.data.callId] : []));

/** The session's status in the store's list. */
async function statusOf(url: string, id: string): Promise<string | undefined> {
  const store = await openStore(url);
  try {
    return (await store.list()).find((summary) => summary.id === id)?.status;
  } finally {
    await store.close();
  }
}

startPostgresBeforeAll();

const stores: readonly [string, () => Promise<string>][] = [
  ['sqlite', async () => `sqlite:${join(tempWorkspace(), 'sessions.db')}`],
  ['jsonl', async () => `jsonl:${join(tempWorkspace(), 'sessions')}`],
  ['postgres', freshPostgresUrl],
];

describe.each(stores)('a suspended run resumed in new processes from the %s store', (_name, makeUrl) => {
  it('runs exactly the approved calls, denies the denied, asks again for the undecided', {
    timeout: 240_000,
  }, async () => {
    const url = await makeUrl();
    const effects = join(tempWorkspace(), 'effects.txt');

    // Process 1: the turn asks for four calls; only the read call runs, then the run is suspended.
    const first = await runChild(['start', url, 's1', effects]);
    expect(asked(first.events)).toEqual(['c1', 'c3', 'c4']);
    expect(first.events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    expect(effectsOf(effects)).toEqual(['look:c2']);
    expect(await statusOf(url, 's1')).toBe('suspended');

    // Process 2: c1 approved and c3 denied up front; c4, undecided, is asked again; suspended again.
    const second = await runChild(['resume', url, 's1', effects, '{"c1":"approve","c3":"deny"}', 'suspend']);
    expect(asked(second.events)).toEqual(['c4']);
    expect(second.events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    expect(second.requests).toEqual([]); // no model request while a call of the turn waits
    expect(effectsOf(effects)).toEqual(['look:c2', 'change:c1']);

    // Process 3: nothing decided up front; c4 is asked again and approved; the model gets one result per call.
    const third = await runChild(['resume', url, 's1', effects, '{}', 'approve']);
    expect(asked(third.events)).toEqual(['c4']);
    expect(third.events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'all done' } });
    expect(effectsOf(effects)).toEqual(['look:c2', 'change:c1', 'change:c4']);
    expect(third.requests[0]?.slice(-4)).toEqual([
      { role: 'tool', callId: 'c1', content: 'change done' },
      { role: 'tool', callId: 'c2', content: 'look done' },
      { role: 'tool', callId: 'c3', content: 'Error: denied: the user denied this call' },
      { role: 'tool', callId: 'c4', content: 'change done' },
    ]);

    // The stored journal keeps the loop's invariants (contract §5) across the three processes.
    const store = await openStore(url);
    try {
      const { entries } = await store.read('s1');
      expect(checkLoopInvariants(entries as readonly JournalEntry[], { events: third.events })).toEqual([]);
      expect(entries.filter((entry) => entry.type === 'tool_result').map((entry) => entry.callId)).toEqual([
        'c2',
        'c1',
        'c3',
        'c4',
      ]);
    } finally {
      await store.close();
    }
    expect(await statusOf(url, 's1')).toBe('done');
  });
});
