import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { tempWorkspace } from '../support/workspace.js';
import { damagePageHolding, storeOfThreeSessions } from './support/sqlite-damage.js';

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

describe('sqlite: pages damaged in the middle of the file', () => {
  it('make read refuse the session with journal_corrupt naming the session and the store; other sessions still read', async () => {
    const file = join(tempWorkspace(), 'sessions.db');
    await storeOfThreeSessions(file);
    damagePageHolding(file, 'a-entry-5 ');
    const store = await SqliteStore.open(file);
    try {
      const error = await failure(store.read('a'));
      expect(error.reason).toBe('journal_corrupt');
      expect(error.message).toContain(`session 'a' in sqlite:${file}: the database file is damaged (SQLITE_CORRUPT`);
      expect(error.message).toContain(`sqlite3 '${file}' .recover`);
      expect((await store.read('b')).entries).toHaveLength(30);
      // list reads each session's last append only: the damage shows in check, not here.
      expect((await store.list()).map((s) => s.id)).toEqual(['a', 'b', 'c']);
      expect(await store.check()).not.toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('under the session table make list fail with journal_corrupt naming the store', async () => {
    const file = join(tempWorkspace(), 'sessions.db');
    await storeOfThreeSessions(file);
    damagePageHolding(file, '{"model":"m"}');
    const store = await SqliteStore.open(file);
    try {
      const error = await failure(store.list());
      expect(error.reason).toBe('journal_corrupt');
      expect(error.message).toMatch(new RegExp(`^sqlite:${file}: the database file is damaged \\(SQLITE_CORRUPT`));
    } finally {
      await store.close();
    }
  });

  it('an undamaged store checks clean', async () => {
    const file = join(tempWorkspace(), 'sessions.db');
    await storeOfThreeSessions(file);
    const store = await SqliteStore.open(file);
    try {
      expect(await store.check()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
