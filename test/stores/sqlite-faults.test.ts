import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { openStore, type StoredEntry } from '../../src/stores/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { entriesAt } from './support/entries.js';
import { execSql } from './support/sqlite-faults.js';

async function failureOf(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

const bulky = (seq: number): StoredEntry => ({
  type: 'tool_result',
  callId: `c${seq}`,
  content: `${seq}`.repeat(3000),
});

/** Mounts a tmpfs of `size` on `dir`; false when this process may not mount. */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

describe('sqlite: a full disk', () => {
  it('fails the append with store_error (SQLITE_FULL), keeps every earlier entry, and a new writer continues once there is room', async () => {
    const dir = join(tempWorkspace(), 'small-disk');
    mkdirSync(dir);
    // A real full disk where mounting is allowed (root); else SQLite's own size cap, which fails the same way.
    const mounted = mountTmpfs(dir, '256k');
    const file = join(dir, 'store.db');
    try {
      const store = await openStore(`sqlite:${file}`, mounted ? {} : { pragmas: { max_page_count: 40 } });
      const writer = await store.openWriter('s');
      let failure: HarnessError | undefined;
      for (let seq = 0; seq < 1_000 && !failure; seq += 2) {
        failure = await writer.append([bulky(seq), bulky(seq + 1)]).then(
          () => undefined,
          (error: unknown) => error as HarnessError,
        );
      }
      expect(failure?.reason).toBe('store_error');
      expect(failure?.message).toMatch(/session 's' in sqlite:.*(SQLITE_FULL|full)/);
      const durable = writer.length;
      expect(durable).toBeGreaterThan(0);
      expect(durable % 2).toBe(0);
      expect((await failureOf(writer.append([bulky(durable)]))).reason).toBe('store_error');
      const expected = Array.from({ length: durable }, (_, seq) => bulky(seq));
      expect((await store.read('s')).entries).toEqual(expected);
      await store.close();
      if (mounted) execFileSync('mount', ['-o', 'remount,size=2m', dir]);
      const roomier = await openStore(`sqlite:${file}`, mounted ? {} : { pragmas: { max_page_count: 400 } });
      const next = await roomier.openWriter('s');
      expect(next.length).toBe(durable);
      await next.append([bulky(durable)]);
      expect((await roomier.read('s')).entries).toEqual([...expected, bulky(durable)]);
      await roomier.close();
    } finally {
      if (mounted) execFileSync('umount', [dir]);
    }
  });
});

describe('sqlite: the writer lock row', () => {
  function deadPid(): number {
    return Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
  }

  async function storeWithLock(pid: number, host: string) {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    await (await store.openWriter('s')).append(entriesAt(0, 2));
    await store.close();
    execSql(file, "INSERT INTO locks VALUES ('s', ?, ?, '', 'their-token', '2030-01-01T00:00:00.000Z')", pid, host);
    return openStore(`sqlite:${file}`);
  }

  it('of a process that is gone is taken over', async () => {
    const store = await storeWithLock(deadPid(), hostname());
    const writer = await store.openWriter('s');
    expect(writer.length).toBe(2);
    await store.close();
  });

  it('of a live process, or one on another host, refuses the session with session_locked naming it', async () => {
    const store = await storeWithLock(1, 'elsewhere');
    const error = await failureOf(store.openWriter('s'));
    expect(error.reason).toBe('session_locked');
    expect(error.message).toContain('pid 1 on elsewhere');
    await store.close();
  });

  it('taken over by another writer makes the old writer fail rather than write beside it', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 1));
    execSql(file, "UPDATE locks SET token = 'stolen' WHERE session = 's'");
    const error = await failureOf(writer.append(entriesAt(1, 1)));
    expect(error.message).toContain('lost its lock');
    expect((await store.read('s')).entries).toEqual(entriesAt(0, 1));
    await store.close();
  });
});

describe('sqlite: the database file', () => {
  it('is created mode 0600, WAL included', async () => {
    const file = join(tempWorkspace(), 'nested', 'store.db');
    const store = await openStore(`sqlite:${file}`);
    await (await store.openWriter('s')).append(entriesAt(0, 1));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it('written by schema version 1 is still read (committed fixture, never regenerated)', async () => {
    const file = join(tempWorkspace(), 'copy.db');
    copyFileSync(new URL('../fixtures/stores/sqlite-v1.db', import.meta.url), file);
    const store = await openStore(`sqlite:${file}`);
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
      { id: 'fixture-session', entries: 5, updatedAt: '2030-01-01T00:00:00.000Z', status: 'done' },
    ]);
    await store.close();
  });

  it('of an unknown schema version is refused with unsupported_journal_version', async () => {
    const file = join(tempWorkspace(), 'store.db');
    await (await openStore(`sqlite:${file}`)).close();
    execSql(file, "UPDATE store_info SET value = '9' WHERE key = 'version'");
    const error = await failureOf(openStore(`sqlite:${file}`));
    expect(error.reason).toBe('unsupported_journal_version');
    expect(error.message).toContain('schema version 9');
  });

  it('refuses a synchronous option other than normal or full with invalid_argument naming it', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const error = await failureOf(openStore(`sqlite:${file}`, { synchronous: 'off' as never }));
    expect(error.reason).toBe('invalid_argument');
    expect(error.message).toContain(`sqlite:${file}: option synchronous must be 'normal' or 'full', not "off"`);
  });

  it('refuses a pragma that could inject SQL', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const error = await failureOf(openStore(`sqlite:${file}`, { pragmas: { 'cache_size = 1; DROP TABLE x': 1 } }));
    expect(error.reason).toBe('invalid_argument');
  });
});

describe('sqlite: a lock row this process failed to remove', () => {
  it('does not lock the session once its writer has closed', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await openStore(`sqlite:${file}`);
    const writer = await store.openWriter('s');
    await writer.append(entriesAt(0, 1));
    execSql(file, "CREATE TRIGGER keep_locks BEFORE DELETE ON locks BEGIN SELECT RAISE(ABORT, 'injected'); END");
    await writer.close();
    execSql(file, 'DROP TRIGGER keep_locks');
    const next = await store.openWriter('s');
    expect(next.length).toBe(1);
    expect((await failureOf(store.openWriter('s'))).reason).toBe('session_locked');
    await store.close();
  });
});
