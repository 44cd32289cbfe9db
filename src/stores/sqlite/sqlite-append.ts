import type { Database, Statement } from 'better-sqlite3';
import { type Blob, externalizeBlobs } from '../blob-refs.js';
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
 * The append of one writer of schema version 3: one transaction (made once: `db.transaction` per
 * call costs) holding one `INSERT … SELECT … WHERE` of one `appends` row with every entry of the
 * append, written only while the lock is still this writer's and the session holds exactly
 * `from` entries (two index look-ups, no write). The session row is written only when the entries
 * change the session's status (about once per run). So a durable point inserts one row and
 * dirties the pages of that row and its index entry, whatever its number of entries. Which check
 * failed is looked up only when one did. An image's or a file's large `data` is stored once in
 * `blobs` (see `externalizeBlobs`), in the same transaction as the row that references it.
 */
export function sqliteAppender(
  db: Database,
  sql: (source: string) => Statement,
  sessionId: string,
  token: string,
  now: () => Date,
): SqliteAppend {
  const lockOf = sql('SELECT token FROM locks WHERE session = ?');
  const insert = sql(
    `INSERT INTO appends (session, seq, count, bodies, at) SELECT ?, ?, ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM locks WHERE session = ? AND token = ?)
         AND COALESCE((SELECT seq + count FROM appends WHERE session = ? ORDER BY seq DESC LIMIT 1), 0) = ?`,
  );
  const changeStatus = sql('UPDATE sessions SET status = ?, updated_at = ?, entries = ? WHERE id = ?');
  const insertBlob = sql('INSERT INTO blobs (hash, bytes) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING');
  const transaction = db.transaction(
    (bodies: readonly string[], blobs: readonly Blob[], from: number, changed: SessionStatus | undefined) => {
      const at = now().toISOString();
      for (const blob of blobs) insertBlob.run(blob.hash, blob.bytes);
      const joined = bodies.length === 1 ? (bodies[0] as string) : bodies.join('\n');
      const written = insert.run(sessionId, from, bodies.length, joined, at, sessionId, token, sessionId, from);
      if (written.changes !== 1) {
        const lock = lockOf.get(sessionId) as { token: string } | undefined;
        if (lock?.token !== token) throw new Error('the writer lost its lock to another writer');
        throw new Error(`the session does not hold ${from} entries any more`);
      }
      if (changed !== undefined) changeStatus.run(changed, at, from + bodies.length, sessionId);
    },
  );
  return (bodies, entries, from, status) => {
    if (!db.open) throw new Error('the store is closed');
    const next = sessionStatusAfter(status, entries);
    const stored = externalizeBlobs(bodies);
    transaction.immediate(stored.bodies, stored.blobs, from, next === status ? undefined : next);
    return next;
  };
}
