import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { type JournalStore, openStore } from '../../src/stores/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { entriesAt } from './support/entries.js';
import { FaultyFileSystem } from './support/faulty-file-system.js';

async function failureOf(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

async function faultyStore(fsync: 'always' | 'batch' | 'never' = 'batch') {
  const dir = tempWorkspace();
  const faulty = new FaultyFileSystem();
  const store = await openStore(`jsonl:${dir}`, { fs: faulty.fs, fsync });
  return { dir, faulty, store, file: (id: string) => join(dir, `${id}.jsonl`) };
}

async function withPrior(store: JournalStore, id: string) {
  const writer = await store.openWriter(id);
  await writer.append(entriesAt(0, 4));
  await writer.append(entriesAt(4, 2));
  return writer;
}

describe('jsonl: a write that fails half-way (ENOSPC, EIO)', () => {
  it('is cut back to the last durable entry, rejects with store_error naming the cause, and spoils the writer', async () => {
    const { faulty, store, file } = await faultyStore();
    const writer = await withPrior(store, 's');
    const size = statSync(file('s')).size;
    faulty.fail('write', 's.jsonl', 'ENOSPC');
    const error = await failureOf(writer.append(entriesAt(6, 8)));
    expect(error.reason).toBe('store_error');
    expect(error.message).toMatch(/session 's' in jsonl:.*ENOSPC/);
    expect(statSync(file('s')).size).toBe(size);
    faulty.heal();
    expect((await failureOf(writer.append(entriesAt(6, 1)))).message).toMatch(/an earlier write failed: .*ENOSPC/);
    expect(await store.read('s')).toMatchObject({ entries: entriesAt(0, 6), warnings: [] });
    await writer.close();
    const next = await store.openWriter('s');
    expect(next.length).toBe(6);
    await next.append(entriesAt(6, 2));
    expect((await store.read('s')).entries).toEqual(entriesAt(0, 8));
  });

  it('when even the cut back fails (EIO), leaves a torn tail that readers drop with a warning and the next writer removes', async () => {
    const { faulty, store, file } = await faultyStore();
    const writer = await withPrior(store, 's');
    faulty.fail('write', 's.jsonl', 'EIO', { partial: 0.7 });
    faulty.fail('ftruncate', 's.jsonl', 'EIO');
    expect((await failureOf(writer.append(entriesAt(6, 8)))).reason).toBe('store_error');
    const size = statSync(file('s')).size;
    const read = await store.read('s');
    expect(read.entries).toEqual(entriesAt(0, 6));
    expect(read.warnings).toEqual([
      expect.stringMatching(/^session 's' in jsonl:.*dropped a torn last append from seq 6/),
    ]);
    faulty.heal();
    await writer.close();
    const next = await store.openWriter('s');
    expect(next.length).toBe(6);
    expect(statSync(file('s')).size).toBeLessThan(size);
    await next.append(entriesAt(6, 1));
    expect(await store.read('s')).toMatchObject({ entries: entriesAt(0, 7), warnings: [] });
  });

  it('with fsync "always", a failure after some lines went to disk one by one still leaves no half append readable', async () => {
    const { faulty, store } = await faultyStore('always');
    const writer = await withPrior(store, 's');
    faulty.fail('write', 's.jsonl', 'ENOSPC', { skip: 3, partial: 0.3 });
    faulty.fail('ftruncate', 's.jsonl', 'EIO');
    expect((await failureOf(writer.append(entriesAt(6, 8)))).reason).toBe('store_error');
    const read = await store.read('s');
    expect(read.entries).toEqual(entriesAt(0, 6));
    expect(read.warnings).toHaveLength(1);
  });

  it('an fsync that fails (EIO) cuts the written append back: it was never durable', async () => {
    const { faulty, store } = await faultyStore();
    const writer = await withPrior(store, 's');
    faulty.fail('fsync', 's.jsonl', 'EIO', { skip: 0 });
    const error = await failureOf(writer.append(entriesAt(6, 3)));
    expect(error.message).toMatch(/EIO/);
    expect(await store.read('s')).toMatchObject({ entries: entriesAt(0, 6), warnings: [] });
  });

  it('a failure creating the session file is a store_error and leaves neither a lock nor a temporary file behind', async () => {
    const { faulty, store, dir } = await faultyStore();
    // The first temporary file written is the lock's, the second the new session file's.
    for (const skip of [0, 1]) {
      faulty.fail('write', '.tmp', 'ENOSPC', { partial: 0.5, skip });
      expect((await failureOf(store.openWriter('new'))).reason).toBe('store_error');
      expect(readdirSync(dir)).toEqual([]);
      faulty.heal();
    }
    faulty.heal();
    const writer = await store.openWriter('new');
    expect(writer.length).toBe(0);
    expect(readFileSync(join(dir, 'new.lock'), 'utf8')).toContain(`"pid":${process.pid}`);
  });
});

describe('jsonl: fsync policies', () => {
  it.each([
    ['always', 5, 'one fsync per line'],
    ['batch', 2, 'one fsync per append'],
    ['never', 0, 'no fsync'],
  ] as const)('%s makes %i fsyncs for appends of 3 and 2 entries (%s)', async (policy, expected, _what) => {
    const { faulty, store } = await faultyStore(policy);
    const writer = await store.openWriter('s');
    faulty.fsyncs.clear();
    await writer.append(entriesAt(0, 3));
    await writer.append(entriesAt(3, 2));
    expect(faulty.fsyncs.get('s.jsonl') ?? 0).toBe(expected);
    expect((await store.read('s')).entries).toEqual(entriesAt(0, 5));
  });
});

describe('jsonl: files', () => {
  it('are created mode 0600 in a folder created mode 0700', async () => {
    const dir = join(tempWorkspace(), 'new', 'journals');
    const store = await openStore(`jsonl:${dir}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 1));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 's.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 's.lock')).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it('hold a versioned header, then one checksummed line per entry naming the last seq of its append', async () => {
    const { store, file } = await faultyStore();
    const writer = await store.openWriter('s', { meta: { journalVersion: '1' } });
    await writer.append([{ type: 'user_message', content: 'hi' }, { type: 'turn_start' }]);
    expect(readFileSync(file('s'), 'utf8').split('\n')).toEqual([
      '{"format":"agent-harness-jsonl","meta":{"journalVersion":"1"},"session":"s","version":1}',
      expect.stringMatching(
        /^\{"seq":0,"last":1,"entry":\{"content":"hi","type":"user_message"\},"crc":"[0-9a-f]{8}"\}$/,
      ),
      expect.stringMatching(/^\{"seq":1,"last":1,"entry":\{"type":"turn_start"\},"crc":"[0-9a-f]{8}"\}$/),
      '',
    ]);
  });

  it('written by version 1 still read (committed fixture, never regenerated)', async () => {
    const store = await openStore(`jsonl:${new URL('../fixtures/stores/jsonl-v1', import.meta.url).pathname}`);
    const read = await store.read('fixture-session');
    expect(read.meta).toEqual({ journalVersion: '1' });
    expect(read.entries.map((entry) => entry.type)).toEqual([
      'user_message',
      'turn_start',
      'assistant_message',
      'tool_result',
      'agent_end',
    ]);
    expect(await store.list()).toEqual([
      { id: 'fixture-session', entries: 5, updatedAt: expect.any(String), status: 'done' },
    ]);
  });

  it('of an unknown format version are refused with unsupported_journal_version', async () => {
    const { store, file } = await faultyStore();
    writeFileSync(file('future'), '{"format":"agent-harness-jsonl","meta":{},"session":"future","version":2}\n');
    const error = await failureOf(store.read('future'));
    expect(error.reason).toBe('unsupported_journal_version');
    expect(error.message).toContain('version 2');
  });

  it('that are not session journals, or name another session, are journal_corrupt at the header', async () => {
    const { store, file } = await faultyStore();
    writeFileSync(file('notes'), 'just some notes\n');
    writeFileSync(file('renamed'), '{"format":"agent-harness-jsonl","meta":{},"session":"original","version":1}\n');
    for (const id of ['notes', 'renamed']) {
      const error = await failureOf(store.read(id));
      expect(error.reason).toBe('journal_corrupt');
      expect(error.message).toContain('header');
    }
  });

  it('drop a damaged line in the last append as a torn tail, but refuse damage followed by a complete append', async () => {
    const { store, file } = await faultyStore();
    const writer = await withPrior(store, 's');
    await writer.close();
    const lines = readFileSync(file('s'), 'utf8').split('\n');
    const damaged = [...lines];
    damaged[6] = (damaged[6] ?? '').replace('"seq":5', '"seq":7');
    writeFileSync(file('s'), damaged.join('\n'));
    const read = await store.read('s');
    expect(read.entries).toEqual(entriesAt(0, 4));
    expect(read.warnings[0]).toMatch(/from seq 4 .*checksum mismatch/);
    damaged[2] = (damaged[2] ?? '').replace('answer', 'answor');
    damaged[6] = lines[6] ?? '';
    writeFileSync(file('s'), damaged.join('\n'));
    const error = await failureOf(store.read('s'));
    expect(error.reason).toBe('journal_corrupt');
    expect(error.message).toContain('entry seq 1 is corrupt (checksum mismatch)');
  });

  it('besides session journals are ignored by list', async () => {
    const { store, dir } = await faultyStore();
    await (await store.openWriter('real')).append(entriesAt(0, 1));
    writeFileSync(join(dir, 'README.txt'), 'not a session');
    appendFileSync(join(dir, '.hidden.jsonl'), '');
    expect((await store.list()).map((summary) => summary.id)).toEqual(['real']);
  });
});

describe('jsonl: the lock file', () => {
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    return Number(child.stdout);
  }

  it('of a writer whose process is gone is stale and taken over', async () => {
    const { store, dir } = await faultyStore();
    await (await store.openWriter('s')).close();
    const pid = deadPid();
    writeFileSync(
      join(dir, 's.lock'),
      JSON.stringify({ pid, host: (await import('node:os')).hostname(), start: '1', token: 'old' }),
    );
    const writer = await store.openWriter('s');
    expect(JSON.parse(readFileSync(join(dir, 's.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await writer.close();
  });

  it('of a live process (or of another host) refuses the session with session_locked naming the holder', async () => {
    const { store, dir } = await faultyStore();
    writeFileSync(join(dir, 's.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', start: '', token: 't' }));
    const error = await failureOf(store.openWriter('s'));
    expect(error.reason).toBe('session_locked');
    expect(error.message).toContain('pid 1 on elsewhere');
  });

  it('that cannot be read (not written by a writer) counts as stale', async () => {
    const { store, dir } = await faultyStore();
    writeFileSync(join(dir, 's.lock'), '');
    const writer = await store.openWriter('s');
    expect(writer.length).toBe(0);
  });

  it('is only removed by the writer that holds it', async () => {
    const { store, dir } = await faultyStore();
    const writer = await store.openWriter('s');
    const other = JSON.stringify({ pid: 1, host: 'elsewhere', start: '', token: 'theirs' });
    writeFileSync(join(dir, 's.lock'), other);
    await writer.close();
    expect(readFileSync(join(dir, 's.lock'), 'utf8')).toBe(other);
  });
});
