// SPEC §8: "a call that started but has no result is in doubt: it runs again only if its tool is
// `idempotent: true` …, otherwise it is answered `Error: interrupted: …`", and §4: "old versions
// stay readable". A version 1 journal has no write-ahead `tool_started` entry (version 2 added it)
// and wrote a batch's results only once every call had settled: a crash in its executingTools
// leaves calls that may well have run with no trace of starting. Resuming such a session treated
// them as never started and ran a non-idempotent write again (a second payment).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Config, openStore, Session } from '../../src/index.js';
import { parseJournal, readJournalFile } from '../../src/journal.js';
import { resumeWithPayAndLook, storeVersion1, V1_CUT } from '../support/v1-journal.js';

const config = new Config({});

const cut = V1_CUT;

/** Resumes `session` (see resumeWithPayAndLook), adding the calls that ran to `ran`. */
async function resumed(session: Session, ran: string[]) {
  const { end, ran: now, results } = await resumeWithPayAndLook(session, config);
  ran.push(...now);
  return { end, results };
}

describe('s0508 §8 resuming a version 1 journal cut while its tools ran', () => {
  it('Session.load: the non-idempotent call is in doubt (interrupted, not run again); the read runs again', async () => {
    const store = await openStore('memory:');
    await storeVersion1(store);
    const ran: string[] = [];
    const session = await Session.load(store, 'v1', { config });
    const { end, results } = await resumed(session, ran);
    expect(end).toBe('agent_end');
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    expect(results.l1).toBe('look done');
    await session.close();
    await store.close();
  });

  it('Session.fromJSON of a version 1 snapshot: the same', async () => {
    const ran: string[] = [];
    const session = Session.fromJSON({ version: 1, savedAt: '2025-01-01T00:00:00.000Z', journal: cut }, config);
    const { results } = await resumed(session, ran);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });

  it('a current journal without tool_started still runs the calls that never started', async () => {
    const ran: string[] = [];
    const session = Session.fromJSON({ version: 6, savedAt: '2025-01-01T00:00:00.000Z', journal: cut }, config);
    const { results } = await resumed(session, ran);
    expect(ran.sort()).toEqual(['l1', 'p1']);
    expect(results.p1).toBe('pay done');
  });
});

describe('s0508 §8 a version 1 session continued by this library', () => {
  it('trusts its write-ahead entries once it holds them: a call that never started runs', async () => {
    const store = await openStore('memory:');
    // A later turn, written by this library (tool_started for l0), cut before p1 started.
    await storeVersion1(store, 'v1', [
      cut[0],
      cut[1],
      cut[2],
      { type: 'assistant_message', content: '', toolCalls: [{ callId: 'l0', name: 'look', arguments: {} }] },
      cut[4],
      { type: 'tool_started', callId: 'l0' },
      { type: 'tool_result', callId: 'l0', content: 'look done' },
      { type: 'turn_start' },
      cut[2],
      cut[3],
      cut[4],
    ] as object[]);
    const ran: string[] = [];
    const session = await Session.load(store, 'v1', { config });
    const { results } = await resumed(session, ran);
    expect(ran.sort()).toEqual(['l1', 'p1']);
    expect(results.p1).toBe('pay done');
    await session.close();
    await store.close();
  });
});

describe('s0508 §8 a fork of a version 1 session cut while its tools ran', () => {
  it('stays a version 1 journal in the store: loaded again, its non-idempotent call is in doubt', async () => {
    const store = await openStore('memory:');
    await storeVersion1(store);
    const original = await Session.load(store, 'v1', { config });
    const fork = await original.fork({ at: original.journalLength, id: 'v1-fork' });
    await fork.close();
    await original.close();
    const ran: string[] = [];
    const loaded = await Session.load(store, 'v1-fork', { config });
    const { results } = await resumed(loaded, ran);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    await loaded.close();
    await store.close();
  });
});

// The same cut as a version 1 JSON Lines file (header `"version":1`), as `run --journal` wrote it.
const V1_FILE = fileURLToPath(new URL('../fixtures/journal-v1-cut.jsonl', import.meta.url));

describe('s0508 §8 a version 1 journal file, replayed', () => {
  it('Session.replay(parseJournal(text)) knows the file’s version: the non-idempotent call is in doubt', async () => {
    const entries = parseJournal(readFileSync(V1_FILE, 'utf8'));
    expect(entries.version).toBe(1);
    expect(entries).toEqual(cut);
    const ran: string[] = [];
    const { end, results } = await resumed(Session.replay(entries, config), ran);
    expect(end).toBe('agent_end');
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    expect(results.l1).toBe('look done');
  });

  it('replayed into a store (as run --resume FILE does), it is stored as version 1: loaded again, still in doubt', async () => {
    const store = await openStore('memory:');
    const copy = Session.replay(await readJournalFile(V1_FILE), config, { store, id: 'copy' });
    await copy.close();
    expect((await store.read('copy')).meta).toMatchObject({ journalVersion: '1' });
    const ran: string[] = [];
    const loaded = await Session.load(store, 'copy', { config });
    const { results } = await resumed(loaded, ran);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    await loaded.close();
    await store.close();
  });

  it('entries without their file’s version (a copy) take it from the journalVersion option', async () => {
    const copied = [...parseJournal(readFileSync(V1_FILE, 'utf8'))];
    const ran: string[] = [];
    const { results } = await resumed(Session.replay(copied, config, { journalVersion: 1 }), ran);
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    expect(() => Session.replay(copied, config, { journalVersion: 99 })).toThrowError(
      expect.objectContaining({ reason: 'unsupported_journal_version' }),
    );
  });

  it('a current file of the same entries still runs the calls that never started', async () => {
    const entries = parseJournal(readFileSync(V1_FILE, 'utf8').replace('"version":1', '"version":6'));
    expect(entries.version).toBe(6);
    const ran: string[] = [];
    const { results } = await resumed(Session.replay(entries, config), ran);
    expect(ran.sort()).toEqual(['l1', 'p1']);
    expect(results.p1).toBe('pay done');
  });
});
