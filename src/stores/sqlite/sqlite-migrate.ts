import type { Database } from 'better-sqlite3';

/**
 * The step from each older `sqlite:` schema version to the next, run inside the transaction
 * that opens the store. Version 1 kept the session row's length, time and status in step with
 * every append; version 2 writes the row only when the status changes and takes the length and
 * last activity from the last entry, whose new `at` column holds its append's time (NULL for the
 * entries of version 1, whose session row still holds the right time).
 */
export const SQLITE_MIGRATIONS: Readonly<Record<number, (db: Database) => void>> = {
  1: (db) => db.exec('ALTER TABLE entries ADD COLUMN at TEXT'),
};

/** Runs the steps from `from` up to `to` and records the new version. */
export function migrateSqlite(db: Database, from: number, to: number): void {
  if (from === to) return;
  for (let version = from; version < to; version++) SQLITE_MIGRATIONS[version]?.(db);
  db.prepare("UPDATE store_info SET value = ? WHERE key = 'version'").run(String(to));
}
