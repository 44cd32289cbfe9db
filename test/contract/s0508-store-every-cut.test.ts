// SPEC §8 blind check: a crash at every journal index, for each store (memory, jsonl, sqlite, postgres):
// the stored prefix is loaded with Session.load and resumed. A recorded call never runs again,
// a call never started runs, an in-doubt write is answered `Error: interrupted: …`, an in-doubt
// read runs again, and the run ends with one result per call and the stored prefix untouched.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  type JournalStore,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { drain, use } from '../support/runs.js';
import { tempWorkspace } from '../support/workspace.js';

const config = new Config({ maxTurns: 6 });

function registry(ran: string[]) {
  const make = (name: string, kind: ToolKind) =>
    defineTool({
      name,
      description: `${name} tool`,
      kind,
      schema: z.object({ v: z.string() }),
      execute: async ({ params, callId }) => {
        ran.push(callId);
        return `${name}:${params.v}`;
      },
    });
  return new ToolRegistry(config).register(make('r', ToolKind.READ)).register(make('w', ToolKind.WRITE));
}

const script = () => [
  [
    StreamEvent.toolCallComplete({ callId: 'r1', name: 'r', arguments: { v: '1' } }),
    StreamEvent.toolCallComplete({ callId: 'w1', name: 'w', arguments: { v: '2' } }),
    StreamEvent.messageComplete(use(3, 2)),
  ],
  [StreamEvent.textDelta('done'), StreamEvent.messageComplete(use(5, 1))],
  [StreamEvent.textDelta('done again'), StreamEvent.messageComplete(use(5, 1))],
];

async function fullJournal(): Promise<readonly JournalEntry[]> {
  const ran: string[] = [];
  const session = new Session(config, { client: new ScriptedClient(script()), registry: registry(ran) });
  await drain(new Agent(config, { session }).run('go'));
  return structuredClone(session.journal);
}

const STORES: [string, () => string | Promise<string>][] = [
  ['memory', () => 'memory:'],
  ['jsonl', () => `jsonl:${join(tempWorkspace(), 'sessions')}`],
  ['sqlite', () => `sqlite:${join(tempWorkspace(), 'sessions.db')}`],
  ['postgres', freshPostgresUrl],
];

const open: JournalStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

describe('s0508 §8: resume after a crash at every journal index, per store', () => {
  startPostgresBeforeAll();
  for (const [name, url] of STORES) {
    it(`${name}: every stored prefix loads byte for byte and resumes to one result per call`, async () => {
      const journal = await fullJournal();
      const store = await openStore(await url());
      open.push(store);
      // The journal as a stored session writes it, for its meta.
      const seeded = new Session(config, { store, id: 'seed' });
      await seeded.durable();
      const meta = (await store.read('seed')).meta;
      await seeded.close();
      for (let cut = 1; cut <= journal.length; cut++) {
        const prefix = journal.slice(0, cut);
        const id = `cut-${cut}`;
        const writer = await store.openWriter(id, { meta });
        await writer.append(JSON.parse(stableJson(prefix)));
        await writer.close();
        const ran: string[] = [];
        const asked = prefix.some((e) => e.type === 'assistant_message');
        const loaded = await Session.load(store, id, {
          config,
          client: new ScriptedClient(asked ? script().slice(1) : script()),
          registry: registry(ran),
        });
        expect(stableJson(loaded.journal)).toBe(stableJson(prefix));
        const answered = new Set(prefix.flatMap((e) => (e.type === 'tool_result' ? [e.callId] : [])));
        const started = new Set(prefix.flatMap((e) => (e.type === 'tool_started' ? [e.callId] : [])));
        const ended = prefix.some((e) => e.type === 'agent_end');
        if (ended) {
          await loaded.close();
          continue;
        }
        const agent = new Agent(config, { session: loaded });
        let events: { type: string; data: unknown }[];
        try {
          events = (await drain(agent.resume())) as never;
        } catch (error) {
          // Only a prefix with nothing to resume may refuse.
          expect((error as { reason?: string }).reason, `cut ${cut}`).toBe('nothing_to_resume');
          await loaded.close();
          continue;
        }
        expect(events.at(-1)?.type, `cut ${cut}: ${stableJson(events.at(-1))}`).toBe('agent_end');
        for (const id of ran) expect(answered.has(id), `cut ${cut}: ${id} ran again`).toBe(false);
        if (asked && !answered.has('r1')) expect(ran, `cut ${cut}`).toContain('r1');
        if (asked && !answered.has('w1')) {
          if (started.has('w1')) {
            expect(ran, `cut ${cut}`).not.toContain('w1');
            const result = loaded.journal.find((e) => e.type === 'tool_result' && e.callId === 'w1');
            expect(stableJson(result), `cut ${cut}`).toMatch(/Error: interrupted: /);
          } else expect(ran, `cut ${cut}`).toContain('w1');
        }
        const results = loaded.journal
          .filter((e) => e.type === 'tool_result')
          .map((e) => (e as { callId: string }).callId);
        expect(results.sort(), `cut ${cut}`).toEqual(['r1', 'w1']);
        await loaded.close();
        const stored = await store.read(id);
        expect(stableJson(stored.entries.slice(0, cut)), `cut ${cut}`).toBe(stableJson(prefix));
        expect(stableJson(stored.entries), `cut ${cut}`).toBe(stableJson(loaded.journal));
      }
    });
  }
});
