import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalStore,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { JOURNAL_VERSION } from '../../src/session/journal-version.js';
import { failingStore } from '../support/failing-store.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { drain, use } from '../support/runs.js';
import { tempWorkspace } from '../support/workspace.js';

const script = () => [
  [
    StreamEvent.toolCallComplete({ callId: 's1', name: 'step', arguments: { n: 1 } }),
    StreamEvent.messageComplete(use(4, 1)),
  ],
  [
    StreamEvent.toolCallComplete({ callId: 's2', name: 'step', arguments: { n: 2 } }),
    StreamEvent.messageComplete(use(6, 1)),
  ],
  [StreamEvent.textDelta('all done'), StreamEvent.messageComplete(use(8, 2))],
];

/** A `step` tool (kind write) that runs `onRun` and logs its runs. */
function stepRegistry(config: Config, runs: number[], onRun?: (n: number) => void | Promise<void>) {
  return new ToolRegistry(config).register(
    defineTool({
      name: 'step',
      description: 'Does one step.',
      kind: ToolKind.WRITE,
      schema: z.object({ n: z.number().int() }),
      execute: async ({ params }) => {
        runs.push(params.n);
        await onRun?.(params.n);
        return `did ${params.n}`;
      },
    }),
  );
}

const stores: JournalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function open(url: string): Promise<JournalStore> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

const config = new Config({ cwd: tempWorkspace() });

describe('new Session(config, { store, id })', () => {
  it('appends every entry to the store as the run goes: the store holds the journal, byte for byte', async () => {
    const store = await open('memory:');
    const session = new Session(config, {
      client: new ScriptedClient(script()),
      registry: stepRegistry(config, []),
      store,
      id: 'run-1',
    });
    const events = await drain(new Agent(config, { session }).run('do the steps'));
    expect(events.at(-1)?.type).toBe('agent_end');
    await session.close();
    const stored = await store.read('run-1');
    expect(stableJson(stored.entries)).toBe(stableJson(session.journal));
    expect(stored.meta).toMatchObject({ journalVersion: String(JOURNAL_VERSION) });
    expect(await store.list()).toEqual([
      expect.objectContaining({ id: 'run-1', entries: session.journalLength, status: 'done' }),
    ]);
  });

  it('keeps the durability order: a tool start is stored before the tool runs, a turn before the next request', async () => {
    const store = await open('memory:');
    const seenByTool: boolean[] = [];
    const seenByModel: boolean[] = [];
    let session: Session | undefined;
    const stored = async () => (await store.read('ordered')).entries;
    const inStore = async () => {
      const entries = await stored();
      return entries.length === session?.journalLength;
    };
    const turns = script().map((events) => async () => {
      seenByModel.push(await inStore()); // everything before this request is durable
      return events;
    });
    const client = {
      chatCompletion: async (...args: unknown[]) => {
        const turn = turns.shift();
        if (turn === undefined) throw new Error('script exhausted');
        void args;
        return (async function* () {
          yield* await turn();
        })();
      },
    };
    session = new Session(config, {
      client,
      registry: stepRegistry(config, [], async (n) => {
        const entries = await stored();
        seenByTool.push(entries.some((e) => e.type === 'tool_started' && e.callId === `s${n}`));
      }),
      store,
      id: 'ordered',
    });
    await drain(new Agent(config, { session }).run('do the steps'));
    expect(seenByTool).toEqual([true, true]);
    expect(seenByModel).toEqual([true, true, true]);
    await session.close();
  });

  it('refuses an id the store already holds (continue it with Session.load)', async () => {
    const store = await open('memory:');
    const first = new Session(config, { store, id: 'taken' });
    first.addUserMessage('hi');
    await first.close();
    const second = new Session(config, { store, id: 'taken' });
    await expect(second.durable()).rejects.toMatchObject({ reason: 'invalid_argument', message: /already exists/ });
    expect((await store.read('taken')).entries).toHaveLength(1);
  });

  it('keeps the order of entries appended in separate steps while its writer is still opening', async () => {
    const store = await open('memory:');
    const session = new Session(config, { store, id: 'early' });
    const written: string[] = [];
    // One entry per step, a step later each time: some flush while the writer opens, some after.
    for (let step = 0; step < 12; step++) {
      session.addUserMessage(`message ${step}`);
      written.push(`message ${step}`);
      for (let wait = 0; wait <= step; wait++) await Promise.resolve();
    }
    await session.close();
    expect((await store.read('early')).entries.map((entry) => entry.content)).toEqual(written);
  });

  it('refuses a bad id at once', () => {
    expect(() => new Session(config, { store: { location: 'x' } as JournalStore, id: '../x' })).toThrow(
      /invalid session id/,
    );
  });
  it('a closed session takes no new run: load it again to go on', async () => {
    const store = await open('memory:');
    const session = new Session(config, {
      client: new ScriptedClient(script()),
      registry: stepRegistry(config, []),
      store,
      id: 'closed',
    });
    session.addUserMessage('hi');
    await session.close();
    await expect(drain(new Agent(config, { session }).run('more'))).rejects.toMatchObject({
      reason: 'store_error',
      message: /was closed; load it again/,
    });
    expect((await store.read('closed')).entries).toHaveLength(1);
  });
});

describe('a failing store', () => {
  it('ends the run with store_error, runs no tool whose start is not durable, and reports nothing past the store', async () => {
    for (const failAt of [1, 2, 3, 4, 5]) {
      const store = await failingStore(failAt);
      const runs: number[] = [];
      const session = new Session(config, {
        client: new ScriptedClient(script()),
        registry: stepRegistry(config, runs),
        store,
        id: 'failing',
      });
      const events = await drain(new Agent(config, { session }).run('do the steps'));
      const last = events.at(-1);
      expect(last).toMatchObject({ type: 'agent_error', data: { reason: 'store_error' } });
      expect(last?.type === 'agent_error' && last.data.message).toMatch(/ENOSPC/);
      const stored = (await store.read('failing')).entries;
      // Every tool that ran has its start in the store.
      for (const n of runs) expect(stored.some((e) => e.type === 'tool_started' && e.callId === `s${n}`)).toBe(true);
      // The store holds a prefix of the journal.
      expect(stableJson(stored)).toBe(stableJson(session.journal.slice(0, stored.length)));
      // The events before the end are about stored entries only: no result the store lacks.
      for (const event of events) {
        if (event.type === 'tool_call_complete') {
          const { callId } = event.data;
          expect(stored.some((e) => e.type === 'tool_result' && e.callId === callId)).toBe(true);
        }
      }
      await expect(session.durable()).rejects.toMatchObject({ reason: 'store_error' });
      expect(() => new Agent(config, { session }).run('again')).not.toThrow();
      await expect(drain(new Agent(config, { session }).run('again'))).rejects.toMatchObject({
        reason: 'store_error',
      });
    }
  });
});

const STORES: readonly [string, () => Promise<string>][] = [
  ['memory', async () => `memory:load-${Math.random()}`],
  ['jsonl', async () => `jsonl:${join(tempWorkspace(), 'sessions')}`],
  ['sqlite', async () => `sqlite:${join(tempWorkspace(), 'sessions.db')}`],
  ['postgres', freshPostgresUrl],
];

describe('Session.load(store, id, …)', () => {
  startPostgresBeforeAll();
  for (const [name, url] of STORES) {
    it(`${name}: rebuilds the session byte for byte, and the run goes on appending to it`, async () => {
      const location = await url();
      const writing = await open(location);
      const runs: number[] = [];
      const session = new Session(config, {
        client: new ScriptedClient(script()),
        registry: stepRegistry(config, runs),
        store: writing,
        id: 'round-trip',
      });
      await drain(new Agent(config, { session }).run('do the steps'));
      await session.close();

      const reading = await open(location);
      const loaded = await Session.load(reading, 'round-trip', {
        config,
        client: new ScriptedClient([[StreamEvent.textDelta('again'), StreamEvent.messageComplete()]]),
        registry: stepRegistry(config, runs),
      });
      expect(stableJson(loaded.journal)).toBe(stableJson(session.journal));
      expect(loaded.messages).toEqual(session.messages);
      expect(loaded.totalUsage).toEqual(session.totalUsage);
      expect(loaded.id).toBe('round-trip');
      // A second writer of the same session is refused while this one holds it.
      await expect(Session.load(reading, 'round-trip', { config })).rejects.toMatchObject({
        reason: 'session_locked',
      });
      await drain(new Agent(config, { session: loaded }).run('once more'));
      await loaded.close();
      const stored = await reading.read('round-trip');
      expect(stableJson(stored.entries)).toBe(stableJson(loaded.journal));
      expect(runs).toEqual([1, 2]);
    });
  }

  it('refuses an unknown session with session_not_found, creating nothing', async () => {
    const store = await open('memory:');
    await expect(Session.load(store, 'nobody', { config })).rejects.toMatchObject({ reason: 'session_not_found' });
    expect(await store.list()).toEqual([]);
  });

  it('refuses a stored journal of an unknown version', async () => {
    const store = await open('memory:');
    const writer = await store.openWriter('future', { meta: { journalVersion: '99' } });
    await writer.append([{ type: 'user_message', content: 'hi' }]);
    await writer.close();
    await expect(Session.load(store, 'future', { config })).rejects.toMatchObject({
      reason: 'unsupported_journal_version',
    });
    // The lock was given back.
    await (await store.openWriter('future')).close();
  });
});

describe('session.fork({ at, id })', () => {
  it('makes a new stored session of the first `at` entries; the original is untouched', async () => {
    const store = await open('memory:');
    const session = new Session(config, {
      client: new ScriptedClient(script()),
      registry: stepRegistry(config, []),
      store,
      id: 'original',
    });
    await drain(new Agent(config, { session }).run('do the steps'));
    await session.durable();
    const before = stableJson(session.journal);
    const at = session.journal.findIndex((e) => e.type === 'tool_result') + 1;
    const fork = await session.fork({ at, id: 'alternative' });
    expect(fork.id).toBe('alternative');
    expect(stableJson(fork.journal)).toBe(stableJson(session.journal.slice(0, at)));
    expect(stableJson((await store.read('alternative')).entries)).toBe(stableJson(fork.journal));
    expect(stableJson(session.journal)).toBe(before);

    // The fork resumes from its point with another answer.
    const client = new ScriptedClient([[StreamEvent.textDelta('another answer'), StreamEvent.messageComplete()]]);
    const loadedFork = await fork.close().then(() => Session.load(store, 'alternative', { config, client }));
    const events = await drain(new Agent(config, { session: loadedFork }).resume());
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'another answer' } });
    await loadedFork.close();
    await session.close();
    expect((await store.read('original')).entries).toHaveLength(session.journalLength);
  });

  it('refuses an `at` outside the journal, and an id that exists', async () => {
    const store = await open('memory:');
    const session = new Session(config, { store, id: 'short' });
    session.addUserMessage('hi');
    for (const at of [-1, 2, 0.5, Number.NaN]) {
      await expect(session.fork({ at })).rejects.toMatchObject({ reason: 'invalid_argument' });
    }
    await expect(session.fork({ at: 1, id: 'short' })).rejects.toMatchObject({ reason: 'session_locked' });
    await session.close();
    await expect(session.fork({ at: 1, id: 'short' })).rejects.toMatchObject({
      reason: 'invalid_argument',
      message: /already exists/,
    });
    const memoryOnly = await new Session(config).fork({ at: 0 });
    expect(memoryOnly.store).toBeUndefined();
  });
});
