import type { Database } from 'better-sqlite3';

/**
 * The step from each older `sqlite:` schema version to the next, run inside the transaction
 * that opens the store (after the current tables were created when missing).
 *
 * Version 1 kept one `entries` row per entry (WITHOUT ROWID, keyed by session and seq) and wrote
 * the session row's length, time and status at every append; version 2 keeps one `appends` row
 * per append and writes the session row only when the status changes. The step copies each
 * version 1 entry into an `appends` row of one entry whose `at` is NULL (the session row's time,
 * kept in step by version 1, stands for it), then drops `entries`. Version 3 adds `blobs` (created
 * with the current tables), so the step from 2 writes nothing: it only marks the file, so that an
 * older library, which could not read a reference to a blob, refuses it.
 */
export const SQLITE_MIGRATIONS: Readonly<Record<number, (db: Database) => void>> = {
  1: (db) =>
    db.exec(`
      INSERT INTO appends (session, seq, count, bodies, at) SELECT session, seq, 1, body, NULL FROM entries ORDER BY session, seq;
      DROP TABLE entries;
    `),
  2: () => {},
};

/** Runs the steps from `from` up to `to` and records the new version. */
export function migrateSqlite(db: Database, from: number, to: number): void {
  if (from === to) return;
  for (let version = from; version < to; version++) SQLITE_MIGRATIONS[version]?.(db);
  db.prepare("UPDATE store_info SET value = ? WHERE key = 'version'").run(String(to));
}
