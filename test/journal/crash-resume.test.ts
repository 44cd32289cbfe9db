import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, Config, openStore, Session } from '../../src/index.js';
import { prng } from '../stores/support/prng.js';
import { drain } from '../support/runs.js';
import { nodeArgs } from '../support/script-bundles.js';
import { tempWorkspace } from '../support/workspace.js';
import { STEPS, stepClient, stepRegistry } from './support/step-agent.js';

const deep = process.env.TEST_DEPTH === 'deep';
const INSTANTS = deep ? 40 : 4;
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const child = fileURLToPath(new URL('./support/crash-agent.ts', import.meta.url));

/** Starts the agent in a child process; resolves once its session exists, with a kill that waits for the end. */
async function startAgent(url: string, id: string, effects: string) {
  const proc = spawn(process.execPath, [...nodeArgs(child), url, id, effects], {
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
      closed = `exit ${code ?? signal}`;
      resolve();
    }),
  );
  const deadline = Date.now() + 60_000; // tsx's start on a busy machine
  while (!out.includes('started')) {
    if (Date.now() > deadline || closed !== undefined) {
      proc.kill('SIGKILL');
      await exited;
      throw new Error(`the agent did not start (${closed}): ${out} ${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return {
    kill: async () => {
      proc.kill('SIGKILL');
      await exited;
      return out;
    },
  };
}

function effectsOf(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe(`kill -9 of an agent appending to the sqlite store (${INSTANTS} random instants, CRASH_SEED=${seed})`, () => {
  it(
    'a write tool takes effect at most once across the crash and the resume; recorded calls never run again',
    async () => {
      const random = prng(seed);
      const dir = tempWorkspace();
      const url = `sqlite:${join(dir, 'sessions.db')}`;
      for (let i = 0; i < INSTANTS; i++) {
        const id = `agent-${i}`;
        const effects = join(dir, `effects-${i}.txt`);
        const running = await startAgent(url, id, effects);
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 12 * STEPS)));
        await running.kill();
        const effectsAtKill = effectsOf(effects);

        const store = await openStore(url);
        try {
          const config = new Config({ maxTurns: 50 });
          const session = await Session.load(store, id, {
            config,
            client: stepClient(),
            registry: stepRegistry(config, (callId) => appendFileSync(effects, `${callId}\n`)),
          });
          const stored = session.journal;
          const recorded = new Set(stored.flatMap((e) => (e.type === 'tool_result' ? [e.callId] : [])));
          // Every call that took effect before the kill had its start durable first.
          const started = new Set(stored.flatMap((e) => (e.type === 'tool_started' ? [e.callId] : [])));
          for (const callId of effectsAtKill) expect(started.has(callId), callId).toBe(true);
          if (!stored.some((e) => e.type === 'user_message')) {
            // Killed before the run's first entry was durable: nothing happened, nothing to resume.
            expect(effectsAtKill).toEqual([]);
            await session.close();
            continue;
          }
          if (session.pendingAnswer === undefined) {
            const events = await drain(new Agent(config, { session }).resume());
            expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'all done' } });
          }
          await session.close();
          const all = effectsOf(effects);
          // At most once each; a recorded call did not run again.
          expect(new Set(all).size, all.join(',')).toBe(all.length);
          for (const callId of recorded) expect(all.filter((c) => c === callId)).toHaveLength(1);
          const results = session.journal.flatMap((e) => (e.type === 'tool_result' ? [e] : []));
          expect(results).toHaveLength(STEPS);
          for (const result of results) {
            const ran = all.includes(result.callId);
            if (!String(result.content).startsWith('Error: interrupted'))
              expect(ran, `${result.callId}: ${result.content}`).toBe(true); // exactly once
          }
        } finally {
          await store.close();
        }
      }
    },
    INSTANTS * 60_000,
  );
});
