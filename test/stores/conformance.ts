import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { stableJson } from '../../src/core/stable-json.js';
import type { JournalStore, StoredEntry } from '../../src/stores/index.js';
import { entriesAt, trickyEntries } from './support/entries.js';

/** One fresh store location for one test, and what the store can be made to suffer there. */
export interface StoreFixture {
  /** Opens a store on this test's location; every call sees the same sessions. */
  open(): Promise<JournalStore>;
  /**
   * Leaves a last append of `entries` for `sessionId`, at seq `from`, that was cut short by a crash
   * (half a line on disk, or a transaction that never committed). `expectWarning`: the store reports it.
   */
  readonly tearLastAppend?: (sessionId: string, from: number, entries: readonly StoredEntry[]) => Promise<void>;
  /** Whether {@link tearLastAppend} leaves something the reader must drop with a warning. */
  readonly tornTailWarns?: boolean;
  /** Damages entry `seq` of `sessionId` where it is stored. */
  readonly corruptEntry?: (sessionId: string, seq: number) => Promise<void>;
  /** Makes every write to `sessionId` from now on fail like a full disk or a lost connection. */
  readonly failWrites?: (sessionId: string) => Promise<void>;
  /** Removes the location. */
  dispose(): Promise<void>;
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (HarnessError.isInstance(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a HarnessError, but the call succeeded');
}

async function errorOf(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    if (HarnessError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessError, but the call succeeded');
}

const json = (entries: readonly StoredEntry[]) => entries.map((entry) => stableJson(entry));

/** The faults a store can suffer (memory has none): each adds the cases that need its hook. */
export type StoreFault = 'tornTail' | 'corruptEntry' | 'failWrites';

function hook<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`the fixture declares the fault but has no ${name}`);
  return value;
}

/**
 * The behaviour every {@link JournalStore} keeps, as one suite: `makeStore` gives a fresh location
 * per test; `faults` lists the fault hooks its fixture provides, and adds the cases that use them.
 */
export function describeStoreConformance(
  name: string,
  makeStore: () => Promise<StoreFixture>,
  faults: readonly StoreFault[] = [],
): void {
  describe(`${name}: the JournalStore contract`, () => {
    let fixture: StoreFixture | undefined;
    const opened: JournalStore[] = [];

    async function setup(): Promise<{ fixture: StoreFixture; store: JournalStore }> {
      fixture = await makeStore();
      return { fixture, store: await open() };
    }

    async function open(): Promise<JournalStore> {
      if (!fixture) throw new Error('setup() first');
      const store = await fixture.open();
      opened.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await fixture?.dispose();
      fixture = undefined;
    });

    it('appends in batches and reads the entries back in order with the meta given at creation', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('s1', { meta: { journalVersion: '1', model: 'm' } });
      expect(writer.sessionId).toBe('s1');
      expect(writer.length).toBe(0);
      await writer.append(entriesAt(0, 3));
      expect(writer.length).toBe(3);
      await writer.append(entriesAt(3, 5));
      expect(writer.length).toBe(8);
      const read = await store.read('s1');
      expect(read.entries).toEqual(entriesAt(0, 8));
      expect(read.warnings).toEqual([]);
      expect(read.meta).toEqual({ journalVersion: '1', model: 'm' });
    });

    it('lists every session with its entry count, ISO-8601 last activity and status, by id', async () => {
      const { store } = await setup();
      expect(await store.list()).toEqual([]);
      const before = Date.now();
      const b = await store.openWriter('b');
      await b.append(entriesAt(0, 4));
      const a = await store.openWriter('a');
      const list = await store.list();
      expect(list.map(({ id, entries, status }) => ({ id, entries, status }))).toEqual([
        { id: 'a', entries: 0, status: 'open' },
        { id: 'b', entries: 4, status: 'open' },
      ]);
      for (const summary of list) {
        expect(new Date(summary.updatedAt).toISOString()).toBe(summary.updatedAt);
        expect(Date.parse(summary.updatedAt)).toBeGreaterThanOrEqual(before - 2_000);
      }
      await a.close();
      await b.close();
    });

    it('keeps the sessions for the next store opened on the same location', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('kept', { meta: { k: 'v' } });
      await writer.append(entriesAt(0, 6));
      await writer.close();
      await store.close();
      const again = await open();
      expect((await again.read('kept')).entries).toEqual(entriesAt(0, 6));
      expect((await again.read('kept')).meta).toEqual({ k: 'v' });
      const continued = await again.openWriter('kept', { meta: { k: 'ignored for an existing session' } });
      expect(continued.length).toBe(6);
      await continued.append(entriesAt(6, 2));
      expect((await again.read('kept')).entries).toEqual(entriesAt(0, 8));
      expect((await again.read('kept')).meta).toEqual({ k: 'v' });
    });

    it('round-trips every entry byte for byte in stable JSON (unicode, escapes, nesting, extreme numbers)', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('bytes');
      await writer.append(trickyEntries.slice(0, 3));
      await writer.append(trickyEntries.slice(3));
      const read = await store.read('bytes');
      expect(json(read.entries)).toEqual(json(trickyEntries));
    });

    it('round-trips large image and file data byte for byte, however it is spelled', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('parts');
      const image = randomBytes(6000).toString('base64');
      const nonCanonical = `${'A'.repeat(4096)}QR==`; // its padding bits are not zero
      const entries: StoredEntry[] = [
        {
          type: 'user_message',
          content: [
            { type: 'text', text: `"data":"${image}" \u0001${'a'.repeat(64)}` },
            { type: 'image', mediaType: 'image/png', data: image },
            { type: 'image', mediaType: 'image/png', data: image },
          ],
        },
        {
          type: 'tool_result',
          callId: 'c',
          content: [{ type: 'file', mediaType: 'application/pdf', data: nonCanonical }],
        },
        { type: 'custom', data: image.slice(0, 4095), nested: { data: `${image}=` } },
      ];
      await writer.append(entries.slice(0, 1));
      await writer.append(entries.slice(1));
      await writer.append(entries.slice(0, 1));
      expect(json((await store.read('parts')).entries)).toEqual(json([...entries, entries[0] as StoredEntry]));
    });

    it('stores a copy: changing an entry object after append changes nothing stored', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('copy');
      const entry = { type: 'user_message', content: 'before', list: [1] };
      await writer.append([entry]);
      entry.content = 'after';
      entry.list.push(2);
      expect((await store.read('copy')).entries).toEqual([{ type: 'user_message', content: 'before', list: [1] }]);
    });

    it('runs appends one at a time in call order, even when not awaited', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('queued');
      await Promise.all([
        writer.append(entriesAt(0, 2)),
        writer.append(entriesAt(2, 3)),
        writer.append(entriesAt(5, 1)),
      ]);
      expect(writer.length).toBe(6);
      expect((await store.read('queued')).entries).toEqual(entriesAt(0, 6));
    });

    it('keeps 20 sessions apart under interleaved concurrent appends', async () => {
      const { store } = await setup();
      const ids = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`);
      const writers = await Promise.all(ids.map((id) => store.openWriter(id)));
      for (let round = 0; round < 5; round++) {
        await Promise.all(writers.map((writer, i) => writer.append(entriesAt(writer.length, 1 + ((i + round) % 4)))));
      }
      const list = await store.list();
      expect(list.map((summary) => summary.id)).toEqual(ids);
      for (const [i, writer] of writers.entries()) {
        const read = await store.read(writer.sessionId);
        expect(read.entries).toEqual(entriesAt(0, writer.length));
        expect(list[i]?.entries).toBe(writer.length);
      }
      await Promise.all(writers.map((writer) => writer.close()));
    });

    it('refuses a second writer with session_locked, then hands the lock on once the first closes', async () => {
      const { store } = await setup();
      const first = await store.openWriter('locked');
      await first.append(entriesAt(0, 3));
      const error = await errorOf(store.openWriter('locked'));
      expect(error.reason).toBe('session_locked');
      expect(error.message).toContain("'locked'");
      const other = await open();
      expect(await reasonOf(other.openWriter('locked'))).toBe('session_locked');
      await first.close();
      await first.close();
      const second = await other.openWriter('locked');
      expect(second.length).toBe(3);
      await second.append(entriesAt(3, 2));
      expect((await store.read('locked')).entries).toEqual(entriesAt(0, 5));
      expect(await reasonOf(first.append(entriesAt(5, 1)))).toBe('store_error');
    });

    it('waits up to lockWaitMs for a held lock, then gives up with session_locked', async () => {
      const { store } = await setup();
      const first = await store.openWriter('waited');
      await first.append(entriesAt(0, 2));
      expect(await reasonOf(store.openWriter('waited', { lockWaitMs: 60 }))).toBe('session_locked');
      const waiting = store.openWriter('waited', { lockWaitMs: 10_000 });
      setTimeout(() => void first.close(), 100);
      const second = await waiting;
      expect(second.length).toBe(2);
    });

    it('releases the locks of writers still open when the store closes', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('released');
      await writer.append(entriesAt(0, 2));
      await store.close();
      await store.close();
      const again = await open();
      const next = await again.openWriter('released');
      expect(next.length).toBe(2);
    });

    it('refuses every call with store_error once closed', async () => {
      const { store } = await setup();
      await (await store.openWriter('s')).append(entriesAt(0, 1));
      await store.close();
      expect(await reasonOf(store.openWriter('s'))).toBe('store_error');
      expect(await reasonOf(store.read('s'))).toBe('store_error');
      expect(await reasonOf(store.list())).toBe('store_error');
    });

    it('refuses meta that is not an object of strings with invalid_argument', async () => {
      const { store } = await setup();
      const meta = { journalVersion: 1 } as unknown as Record<string, string>;
      expect(await reasonOf(store.openWriter('s', { meta }))).toBe('invalid_argument');
      expect(await store.list()).toEqual([]);
    });

    it('round-trips an entry holding a 1 MB string', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('large');
      const big = { type: 'tool_result', callId: 'big', content: 'x€\n'.repeat(350_000).slice(0, 1_048_576) };
      await writer.append([entriesAt(0, 1)[0] as StoredEntry, big]);
      await writer.append(entriesAt(2, 1));
      const read = await store.read('large');
      expect(read.entries[1]).toEqual(big);
      expect(json(read.entries)).toEqual(json([entriesAt(0, 1)[0] as StoredEntry, big, ...entriesAt(2, 1)]));
    });

    it('holds 10,000 entries appended in batches of 100 and reads them back equal', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('many');
      for (let from = 0; from < 10_000; from += 100) await writer.append(entriesAt(from, 100));
      const read = await store.read('many');
      expect(read.entries.length).toBe(10_000);
      expect(read.entries).toEqual(entriesAt(0, 10_000));
      expect((await store.list())[0]?.entries).toBe(10_000);
    });

    it('refuses entries that are not JSON objects with a string type, writing nothing, and stays usable', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('invalid');
      await writer.append(entriesAt(0, 1));
      const circular: Record<string, unknown> = { type: 'x' };
      circular.self = circular;
      const bad = [
        [entriesAt(1, 1)[0], { content: 'no type' }],
        [{ type: 3 }],
        [null],
        [['type', 'x']],
        [circular],
      ] as unknown as StoredEntry[][];
      for (const entries of bad) expect(await reasonOf(writer.append(entries))).toBe('invalid_argument');
      expect(writer.length).toBe(1);
      await writer.append(entriesAt(1, 1));
      expect((await store.read('invalid')).entries).toEqual(entriesAt(0, 2));
    });

    it('treats an empty append as nothing to do', async () => {
      const { store } = await setup();
      const writer = await store.openWriter('empty');
      await writer.append([]);
      expect(writer.length).toBe(0);
      expect((await store.read('empty')).entries).toEqual([]);
    });

    it('refuses invalid session ids with invalid_argument and unknown sessions with session_not_found', async () => {
      const { store } = await setup();
      for (const id of ['', '.hidden', '../escape', 'a/b', 'a b', 'é', 'x'.repeat(129), 'nul\0']) {
        expect(await reasonOf(store.openWriter(id)), id).toBe('invalid_argument');
        expect(await reasonOf(store.read(id)), id).toBe('invalid_argument');
      }
      await (await store.openWriter(`A-z_0.9${'x'.repeat(120)}`)).close();
      const missing = await errorOf(store.read('nobody'));
      expect(missing.reason).toBe('session_not_found');
      expect(missing.message).toContain("'nobody'");
    });

    it('derives each status from the last run-ending entry', async () => {
      const { store } = await setup();
      const sessions: Record<string, StoredEntry[][]> = {
        'st-done': [[{ type: 'user_message', content: 'q' }], [{ type: 'agent_end', response: 'a' }]],
        'st-done-then-transition': [
          [
            { type: 'user_message', content: 'q' },
            { type: 'agent_end', response: 'a' },
          ],
          [{ type: 'transition', from: 'observing', to: 'done', event: 'x' }],
        ],
        'st-error': [
          [
            { type: 'user_message', content: 'q' },
            { type: 'agent_error', reason: 'turn_budget', message: 'm' },
          ],
        ],
        'st-suspended': [
          [{ type: 'user_message', content: 'q' }],
          [{ type: 'agent_error', reason: 'suspended', message: '' }],
        ],
        'st-reopened': [
          [
            { type: 'user_message', content: 'q' },
            { type: 'agent_end', response: 'a' },
          ],
          [{ type: 'user_message', content: 'again' }, { type: 'turn_start' }],
        ],
        'st-running': [[{ type: 'user_message', content: 'q' }, { type: 'turn_start' }]],
        'st-new': [],
      };
      for (const [id, batches] of Object.entries(sessions)) {
        const writer = await store.openWriter(id);
        for (const batch of batches) await writer.append(batch);
        await writer.close();
      }
      const statuses = Object.fromEntries((await (await open()).list()).map((s) => [s.id, s.status]));
      expect(statuses).toEqual({
        'st-done': 'done',
        'st-done-then-transition': 'done',
        'st-error': 'error',
        'st-suspended': 'suspended',
        'st-reopened': 'open',
        'st-running': 'open',
        'st-new': 'open',
      });
    });

    const tornTailCase = faults.includes('tornTail') ? it : undefined;
    tornTailCase?.(
      'drops a last append cut short by a crash, keeps what was durable, and continues at the right seq',
      async () => {
        const { fixture, store } = await setup();
        const tearLastAppend = hook(fixture.tearLastAppend, 'tearLastAppend');
        const writer = await store.openWriter('torn');
        await writer.append(entriesAt(0, 4));
        await writer.append(entriesAt(4, 3));
        await writer.close();
        await tearLastAppend('torn', 7, entriesAt(7, 5));
        const read = await store.read('torn');
        expect(read.entries).toEqual(entriesAt(0, 7));
        if (fixture.tornTailWarns) {
          expect(read.warnings).toHaveLength(1);
          expect(read.warnings[0]).toMatch(/torn last append from seq 7/);
        } else expect(read.warnings).toEqual([]);
        const next = await store.openWriter('torn');
        expect(next.length).toBe(7);
        await next.append(entriesAt(7, 2));
        const after = await store.read('torn');
        expect(after.entries).toEqual(entriesAt(0, 9));
        expect(after.warnings).toEqual([]);
      },
    );

    const corruptCase = faults.includes('corruptEntry') ? it : undefined;
    corruptCase?.(
      'refuses a corrupt entry before the last with journal_corrupt naming the session and its seq',
      async () => {
        const { fixture, store } = await setup();
        const corruptEntry = hook(fixture.corruptEntry, 'corruptEntry');
        const writer = await store.openWriter('damaged');
        for (let from = 0; from < 12; from += 3) await writer.append(entriesAt(from, 3));
        await writer.close();
        await corruptEntry('damaged', 5);
        const error = await errorOf(store.read('damaged'));
        expect(error.reason).toBe('journal_corrupt');
        expect(error.message).toContain("'damaged'");
        expect(error.message).toContain('seq 5');
      },
    );

    const failCase = faults.includes('failWrites') ? it : undefined;
    failCase?.(
      'rejects a failed write with store_error, keeps exactly the earlier entries and makes the writer unusable',
      async () => {
        const { fixture, store } = await setup();
        const failWrites = hook(fixture.failWrites, 'failWrites');
        const writer = await store.openWriter('failing');
        await writer.append(entriesAt(0, 5));
        await failWrites('failing');
        const error = await errorOf(writer.append(entriesAt(5, 8)));
        expect(error.reason).toBe('store_error');
        expect(error.message).toContain("'failing'");
        expect(writer.length).toBe(5);
        expect(await reasonOf(writer.append(entriesAt(5, 1)))).toBe('store_error');
        const read = await store.read('failing');
        expect(read.entries).toEqual(entriesAt(0, 5));
        await writer.close();
      },
    );
  });
}
