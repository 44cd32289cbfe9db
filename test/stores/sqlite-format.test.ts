import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, SQLITE_VERSION } from '../../src/stores/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { entriesAt } from './support/entries.js';

/** A clock that ticks one second per call from 2031-01-01. */
function ticking(): () => Date {
  let tick = Date.parse('2031-01-01T00:00:00.000Z');
  return () => {
    tick += 1000;
    return new Date(tick);
  };
}

/** Runs `sql` read-only on its own connection to `file`. */
function query<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new Sqlite(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const versionOf = (file: string) =>
  query<{ value: string }>(file, "SELECT value FROM store_info WHERE key = 'version'")[0]?.value;

/** The list() that schema version 1 gave for the fixture (printed by the code that wrote it, 9364d6f). */
const V1_LIST = [
  { id: 'done-session', entries: 7, updatedAt: '2030-01-01T00:00:06.000Z', status: 'done' },
  { id: 'empty-session', entries: 0, updatedAt: '2030-01-01T00:00:24.000Z', status: 'open' },
  { id: 'error-session', entries: 2, updatedAt: '2030-01-01T00:00:18.000Z', status: 'error' },
  { id: 'open-session', entries: 3, updatedAt: '2030-01-01T00:00:10.000Z', status: 'open' },
  { id: 'reopened-session', entries: 4, updatedAt: '2030-01-01T00:00:22.000Z', status: 'open' },
  { id: 'suspended-session', entries: 3, updatedAt: '2030-01-01T00:00:14.000Z', status: 'suspended' },
];

describe('sqlite: schema version 1 databases (committed fixture sqlite-v1-sessions.db, never regenerated)', () => {
  function copy(): string {
    const file = join(tempWorkspace(), 'v1.db');
    copyFileSync(new URL('../fixtures/stores/sqlite-v1-sessions.db', import.meta.url), file);
    return file;
  }

  it('are migrated on open to the current version, listing and reading as version 1 did', async () => {
    const file = copy();
    expect(versionOf(file)).toBe('1');
    const store = await openStore(`sqlite:${file}`);
    expect(versionOf(file)).toBe(String(SQLITE_VERSION));
    expect(query(file, "SELECT name FROM sqlite_master WHERE name = 'entries'")).toEqual([]);
    expect(query(file, "SELECT seq, count, at FROM appends WHERE session = 'open-session' ORDER BY seq")).toEqual([
      { seq: 0, count: 1, at: null },
      { seq: 1, count: 1, at: null },
      { seq: 2, count: 1, at: null },
    ]);
    expect(await store.list()).toEqual(V1_LIST);
    const done = await store.read('done-session');
    expect(done.meta).toEqual({ journalVersion: '4' });
    expect(done.entries.map((entry) => entry.type)).toEqual([
      'user_message',
      'turn_start',
      'tool_started',
      'tool_result',
      'turn_start',
      'assistant_message',
      'agent_end',
    ]);
    expect((await store.read('empty-session')).entries).toEqual([]);
    await store.close();
    // Opening again finds the current version and changes nothing.
    const again = await openStore(`sqlite:${file}`);
    expect(await again.list()).toEqual(V1_LIST);
    await again.close();
  });

  it('continue where version 1 left off: length, status and last activity of the new appends', async () => {
    const file = copy();
    const store = await openStore(`sqlite:${file}`, { now: ticking() });
    const open = await store.openWriter('open-session');
    expect(open.length).toBe(3);
    await open.append([{ type: 'tool_result', callId: 'c2', content: 'ok' }]);
    const reopened = await store.openWriter('reopened-session');
    await reopened.append([{ type: 'agent_end', reason: 'done' }]);
    const done = await store.openWriter('done-session');
    await done.append([{ type: 'user_message', content: 'more' }]);
    const listed = new Map((await store.list()).map((summary) => [summary.id, summary]));
    expect(listed.get('open-session')).toEqual({
      id: 'open-session',
      entries: 4,
      updatedAt: '2031-01-01T00:00:02.000Z', // 00:01 is the lock's time
      status: 'open',
    });
    expect(listed.get('reopened-session')).toMatchObject({ entries: 5, status: 'done' });
    expect(listed.get('done-session')).toMatchObject({ entries: 8, status: 'open' });
    expect(listed.get('error-session')).toEqual(V1_LIST[2]);
    expect((await store.read('open-session')).entries.at(-1)).toEqual({
      type: 'tool_result',
      callId: 'c2',
      content: 'ok',
    });
    await store.close();
  });
});

describe('sqlite: the session row', () => {
  it('is written when the session is created and when its status changes, not at every append', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`, { now: ticking() });
    const writer = await store.openWriter('s'); // 00:01 the lock, 00:02 created
    await writer.append([{ type: 'user_message', content: 'hi' }]); // 00:03, still open
    await writer.append(entriesAt(1, 3)); // 00:04
    const row = () =>
      query<{ updated_at: string; status: string; entries: number }>(
        file,
        "SELECT updated_at, status, entries FROM sessions WHERE id = 's'",
      )[0];
    expect(row()).toEqual({ updated_at: '2031-01-01T00:00:02.000Z', status: 'open', entries: 0 });
    expect(await store.list()).toEqual([
      { id: 's', entries: 4, updatedAt: '2031-01-01T00:00:04.000Z', status: 'open' },
    ]);
    await writer.append([{ type: 'agent_end', reason: 'done' }]); // 00:05, done
    expect(row()).toEqual({ updated_at: '2031-01-01T00:00:05.000Z', status: 'done', entries: 5 });
    expect(await store.list()).toEqual([
      { id: 's', entries: 5, updatedAt: '2031-01-01T00:00:05.000Z', status: 'done' },
    ]);
    await store.close();
  });

  it('refuses a session whose entries fell short of its row with journal_corrupt', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 3));
    await writer.append([{ type: 'agent_end', reason: 'done' }]);
    await writer.close();
    const db = new Sqlite(file);
    db.prepare("DELETE FROM appends WHERE session = 's' AND seq = 3").run();
    db.close();
    await expect(store.read('s')).rejects.toMatchObject({ reason: 'journal_corrupt' });
    await expect(store.openWriter('s')).rejects.toMatchObject({ reason: 'journal_corrupt' });
    await store.close();
  });

  it('holds one append in one row, its entries one per line', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 1));
    await writer.append(entriesAt(1, 4));
    expect(query(file, "SELECT seq, count FROM appends WHERE session = 's' ORDER BY seq")).toEqual([
      { seq: 0, count: 1 },
      { seq: 1, count: 4 },
    ]);
    expect((await store.read('s')).entries).toEqual(entriesAt(0, 5));
    await store.close();
  });

  it('refuses an append row missing lines with journal_corrupt naming the first missing entry', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 4));
    await writer.close();
    const db = new Sqlite(file);
    db.prepare("UPDATE appends SET bodies = substr(bodies, 1, instr(bodies, char(10)) - 1) WHERE session = 's'").run();
    db.close();
    await expect(store.read('s')).rejects.toMatchObject({
      reason: 'journal_corrupt',
      message: expect.stringContaining('seq 1'),
    });
    await store.close();
  });
});

/** The 6 KiB "PNG" of the version 2 fixture (see make-sqlite-v2.mts.txt, beside it). */
function fixtureImage(): string {
  const bytes = Buffer.alloc(6144);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 251;
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  return bytes.toString('base64');
}

describe('sqlite: schema version 2 databases (committed fixture sqlite-v2-sessions.db, never regenerated)', () => {
  it('are migrated on open to version 3: images written inline stay inline and read the same; new ones go to blobs', async () => {
    const file = join(tempWorkspace(), 'v2.db');
    copyFileSync(new URL('../fixtures/stores/sqlite-v2-sessions.db', import.meta.url), file);
    expect(versionOf(file)).toBe('2');
    const store = await openStore(`sqlite:${file}`);
    expect(versionOf(file)).toBe(String(SQLITE_VERSION));
    const image = { type: 'image', mediaType: 'image/png', data: fixtureImage() };
    const shots = [
      { type: 'user_message', content: [{ type: 'text', text: 'what is this?' }, image] },
      { type: 'turn_start' },
      { type: 'assistant_message', content: '', toolCalls: [{ callId: 'c1', name: 'look', arguments: {} }] },
      { type: 'tool_started', callId: 'c1' },
      { type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'the screen' }, image] },
      { type: 'turn_start' },
      { type: 'agent_end', response: 'a test pattern' },
    ];
    expect(await store.read('shots')).toEqual({ entries: shots, warnings: [], meta: { journalVersion: '6' } });
    // The list() that schema version 2 gave for the fixture (printed by the code that wrote it, fcf780d).
    expect(await store.list()).toEqual([
      { id: 'plain', entries: 3, updatedAt: '2032-01-01T00:00:09.000Z', status: 'done' },
      { id: 'shots', entries: 7, updatedAt: '2032-01-01T00:00:06.000Z', status: 'done' },
    ]);
    expect(query(file, 'SELECT hash FROM blobs')).toEqual([]);
    const writer = await store.openWriter('shots');
    const again = { type: 'user_message', content: [{ type: 'text', text: 'and now?' }, image] };
    await writer.append([again]);
    expect(query(file, 'SELECT hash FROM blobs')).toHaveLength(1);
    expect((await store.read('shots')).entries).toEqual([...shots, again]);
    await store.close();
  });
});
