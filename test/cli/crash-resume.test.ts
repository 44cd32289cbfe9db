import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Config, type JournalEntry, openStore, Session } from '../../src/index.js';
import { prng } from '../stores/support/prng.js';
import { captured, cliWorkspace } from './support/cli-harness.js';
import { spawnCli, until } from './support/spawn-cli.js';

const deep = process.env.TEST_DEPTH === 'deep';
const INSTANTS = deep ? 30 : 3;
const TOOL_TURNS = 6;
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);

function sse(delta: Record<string, unknown>, finish: string | null): string {
  const chunk = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * A model that reads the conversation it is sent: while fewer than TOOL_TURNS tool results came
 * back it asks for `read_file` once more (call id `call_<k>`), then answers. Each answer waits
 * `delayMs`, so that a run lasts long enough to be killed in the middle.
 */
async function startModel(delayMs: number): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      raw += piece;
    });
    req.on('end', () => {
      state.requests++;
      const body = JSON.parse(raw) as { messages: { role: string }[] };
      const k = body.messages.filter((m) => m.role === 'tool').length;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (k < TOOL_TURNS) {
          const call = {
            id: `call_${k}`,
            index: 0,
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"app.py"}' },
          };
          res.write(sse({ role: 'assistant', content: '', tool_calls: [call] }, null));
          res.write(sse({}, 'tool_calls'));
        } else {
          res.write(sse({ role: 'assistant', content: 'all done' }, null));
          res.write(sse({}, 'stop'));
        }
        res.end('data: [DONE]\n\n');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function resultsByCall(entries: readonly JournalEntry[], type: 'tool_result' | 'tool_started'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (entry.type === type) counts.set(entry.callId, (counts.get(entry.callId) ?? 0) + 1);
  }
  return counts;
}

beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe(`kill -9 of a real 'agent-harness run' on the sqlite store (${INSTANTS} random instants, CRASH_SEED=${seed})`, () => {
  it(
    'leaves a valid prefix of the journal, and `resume ID` finishes the run without re-running recorded calls',
    async () => {
      const random = prng(seed);
      const model = await startModel(25);
      try {
        const cwd = cliWorkspace();
        const store = `sqlite:${join(cwd, 'sessions.db')}`;
        let resumedMidRun = 0;
        for (let i = 0; i < INSTANTS; i++) {
          const id = `crash-${i}`;
          const cli = spawnCli(
            ['run', 'Read app.py six times', '--store', store, '--session', id, '--base-url', model.url, '--cwd', cwd],
            {},
            90_000,
          );
          const before = model.requests;
          await until(() => model.requests > before, 'the first model request', 60_000);
          // Somewhere in the run: its requests come every ~25 ms plus the loop's own time.
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 25 * TOOL_TURNS)));
          cli.child.kill('SIGKILL');
          await cli.done;

          // A valid prefix: it replays (entry shapes, every result pairs with a call).
          const reading = await openStore(store);
          const stored = (await reading.read(id)).entries;
          await reading.close();
          const prefix = Session.replay(stored, new Config()).journal;
          const recorded = resultsByCall(prefix, 'tool_result');
          const startedBefore = resultsByCall(prefix, 'tool_started');
          const ended = prefix.some((e) => e.type === 'agent_end');

          const out = captured();
          const err = captured();
          const code = await main(['resume', id, '--store', store, '--base-url', model.url, '--cwd', cwd], out, err);
          if (ended) {
            expect(code).toBe(2); // nothing to resume: the run had finished
            expect(err.text()).toMatch(/ended with a final answer/);
            continue;
          }
          resumedMidRun++;
          expect({ code, err: err.text() }).toEqual({ code: 0, err: '' });
          expect(out.text()).toMatch(/done: final answer/);

          const after = await openStore(store);
          const journal = (await after.read(id)).entries as unknown as JournalEntry[];
          await after.close();
          expect(journal.slice(0, prefix.length)).toEqual(prefix); // the stored prefix is kept as it was
          const results = resultsByCall(journal, 'tool_result');
          const started = resultsByCall(journal, 'tool_started');
          expect([...results.keys()].sort()).toEqual(Array.from({ length: TOOL_TURNS }, (_, k) => `call_${k}`).sort());
          for (const [callId, count] of results) expect(count, callId).toBe(1);
          // A call whose result was recorded never ran again (no second start).
          for (const callId of recorded.keys()) expect(started.get(callId), callId).toBe(startedBefore.get(callId));
          expect(journal.at(-1)).toMatchObject({ type: 'agent_end', response: 'all done' });
        }
        // The kills fall within the run (its 7 requests take over 175 ms), so most are resumed mid-run.
        expect(resumedMidRun).toBeGreaterThan(0);
      } finally {
        await model.close();
      }
    },
    INSTANTS * 60_000,
  );
});
