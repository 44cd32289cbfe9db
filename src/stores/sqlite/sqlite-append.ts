import type { Database, Statement } from 'better-sqlite3';
import type { SessionStatus, StoredEntry } from '../journal-store.js';
import { sessionStatusAfter } from '../session-status.js';

/** Makes `bodies` durable at seq `from`, … in one transaction and returns the session's status after them. */
export type SqliteAppend = (
  bodies: readonly string[],
  entries: readonly StoredEntry[],
  from: number,
  status: SessionStatus,
) => SessionStatus;

/**
 * The append of one writer of schema version 2: one transaction (made once: `db.transaction` per
 * call costs) whose first `INSERT … SELECT … WHERE` writes the first entry only while the lock is
 * still this writer's and the session holds exactly `from` entries (three index look-ups, no
 * write), then inserts the others. The session row is written only when the entries change the
 * session's status (about once per run), so a durable point dirties one page of `entries`
 * instead of two pages. Which check failed is looked up only when one did.
 */
export function sqliteAppender(
  db: Database,
  sql: (source: string) => Statement,
  sessionId: string,
  token: string,
  now: () => Date,
): SqliteAppend {
  const lockOf = sql('SELECT token FROM locks WHERE session = ?');
  const first = sql(
    `INSERT INTO entries (session, seq, body, at) SELECT ?, ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM locks WHERE session = ? AND token = ?)
         AND NOT EXISTS (SELECT 1 FROM entries WHERE session = ? AND seq >= ?)
         AND (? = 0 OR EXISTS (SELECT 1 FROM entries WHERE session = ? AND seq = ? - 1))`,
  );
  const insert = sql('INSERT INTO entries (session, seq, body, at) VALUES (?, ?, ?, ?)');
  const changeStatus = sql('UPDATE sessions SET status = ?, updated_at = ?, entries = ? WHERE id = ?');
  const transaction = db.transaction((bodies: readonly string[], from: number, changed: SessionStatus | undefined) => {
    const at = now().toISOString();
    const written = first.run(sessionId, from, bodies[0], at, sessionId, token, sessionId, from, from, sessionId, from);
    if (written.changes !== 1) {
      const lock = lockOf.get(sessionId) as { token: string } | undefined;
      if (lock?.token !== token) throw new Error('the writer lost its lock to another writer');
      throw new Error(`the session does not hold ${from} entries any more`);
    }
    for (let i = 1; i < bodies.length; i++) insert.run(sessionId, from + i, bodies[i], at);
    if (changed !== undefined) changeStatus.run(changed, at, from + bodies.length, sessionId);
  });
  return (bodies, entries, from, status) => {
    if (!db.open) throw new Error('the store is closed');
    const next = sessionStatusAfter(status, entries);
    transaction.immediate(bodies, from, next === status ? undefined : next);
    return next;
  };
}
