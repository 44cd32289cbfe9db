import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, Config, openStore, Session, stableJson } from '../../src/index.js';
import { drain } from '../support/runs.js';
import { nodeArgs } from '../support/script-bundles.js';
import { tempWorkspace } from '../support/workspace.js';
import { delegationClients, leadRegistry, TURN_USAGE } from './support/delegation.js';

const script = fileURLToPath(new URL('./support/crash-delegation.ts', import.meta.url));

/** Runs the delegation in a child process and SIGKILLs it once item 2's effect hangs. */
async function runUntilKilled(url: string, id: string, effects: string): Promise<string> {
  const proc = spawn(process.execPath, [...nodeArgs(script), url, id, effects], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (text: string) => {
    out += text;
  });
  proc.stderr.setEncoding('utf8').on('data', (text: string) => {
    err += text;
  });
  let closed: string | undefined;
  const exited = new Promise<void>((resolve) =>
    proc.on('close', (code, signal) => {
      closed = `${code ?? signal}`;
      resolve();
    }),
  );
  const deadline = Date.now() + 60_000; // tsx's start on a busy machine
  while (!out.includes('effect 2')) {
    if (Date.now() > deadline || closed !== undefined) {
      proc.kill('SIGKILL');
      await exited;
      throw new Error(`the delegation did not reach item 2 (${closed}): ${out} ${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  proc.kill('SIGKILL');
  await exited;
  return closed ?? '';
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('kill -9 of a three-level delegation, then resume', () => {
  it('resumes the interrupted children and never re-runs a finished one (no side effect twice)', async () => {
    const dir = tempWorkspace();
    const url = `sqlite:${join(dir, 'sessions.db')}`;
    const effects = join(dir, 'effects.txt');
    expect(await runUntilKilled(url, 'lead', effects)).toBe('SIGKILL');
    expect(lines(effects)).toEqual(['1', '2']);

    const store = await openStore(url);
    try {
      const finished = ['lead.t1.r1', 'lead.t1.r1.t1.a1'];
      const before = await Promise.all(finished.map(async (id) => stableJson((await store.read(id)).entries)));
      const clients = delegationClients();
      const config = new Config();
      const registry = leadRegistry(clients, (n) => appendFileSync(effects, `${n}\n`));
      const session = await Session.load(store, 'lead', { config, client: clients.lead, registry });
      expect(session.pendingToolCalls().map((call) => call.callId)).toEqual(['r2']);
      const events = await drain(new Agent(config, { session }).resume());
      await session.close();

      const end = events.at(-1);
      expect(end?.type).toBe('agent_end');
      const response = end?.type === 'agent_end' ? end.data.response : '';
      expect(response).toMatch(
        /^report: research 1: analysis 1: effect 1 done \| research 2: analysis 2: Error: interrupted/,
      );
      // Nothing ran twice: item 1's children were not asked again, item 2's effect (kind write,
      // in doubt) was answered `interrupted` instead of running again.
      expect(lines(effects)).toEqual(['1', '2']);
      expect(clients.lead.calls).toBe(1);
      expect(clients.researcher.calls).toBe(1);
      expect(clients.analyst.calls).toBe(1);
      const after = await Promise.all(finished.map(async (id) => stableJson((await store.read(id)).entries)));
      expect(after).toEqual(before);
      // Every turn of the tree counted once in the lead: 3 of its own, 2 per researcher, 2 per analyst.
      expect(session.totalUsage.totalTokens).toBe(11 * TURN_USAGE.totalTokens);
      for (const id of ['lead.t2.r2', 'lead.t2.r2.t1.a1']) {
        expect((await store.read(id)).entries.at(-1)).toMatchObject({ type: 'agent_end' });
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
