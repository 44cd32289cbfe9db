import type { Database } from 'better-sqlite3';
import { HarnessError } from '../../core/errors.js';

/** The `sqlite:` schema version this library writes; older versions stay readable forever. */
export const SQLITE_VERSION = 1;

const FORMAT = 'agent-harness-sqlite';

/**
 * Version 1: `sessions` (one row per session, kept in step with its entries by each append's
 * transaction), `entries` keyed by (session, seq) holding each entry's stable JSON, `locks` (the
 * writer of each session: pid, host, process start, token) and `store_info` (format, version).
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO store_info (key, value) VALUES ('format', '${FORMAT}'), ('version', '${SQLITE_VERSION}');
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  meta TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  status TEXT NOT NULL,
  entries INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (session, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS locks (
  session TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  start TEXT NOT NULL,
  token TEXT NOT NULL,
  taken_at TEXT NOT NULL
);
`;

/** Creates the tables when missing and refuses a file of another format or an unknown version. */
export function prepareSchema(db: Database, location: string): void {
  db.transaction(() => db.exec(SCHEMA)).immediate();
  const info = new Map(
    (db.prepare('SELECT key, value FROM store_info').all() as { key: string; value: string }[]).map((row) => [
      row.key,
      row.value,
    ]),
  );
  if (info.get('format') !== FORMAT) {
    throw new HarnessError('store_error', `${location} is not an agent-harness store (format ${info.get('format')})`);
  }
  if (info.get('version') !== String(SQLITE_VERSION)) {
    throw new HarnessError(
      'unsupported_journal_version',
      `${location} has schema version ${info.get('version')}; this library reads version ${SQLITE_VERSION}`,
    );
  }
}
