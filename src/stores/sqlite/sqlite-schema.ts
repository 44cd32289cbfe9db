import type { Database } from 'better-sqlite3';
import { HarnessError } from '../../core/errors.js';
import { migrateSqlite } from './sqlite-migrate.js';

/** The `sqlite:` schema version this library writes; older versions are migrated on open. */
export const SQLITE_VERSION = 3;

const FORMAT = 'agent-harness-sqlite';

/**
 * Version 3: `sessions` (one row per session: meta, creation time, and the status with the time
 * and entry count of its last change; written when the session is created and when an append
 * changes its status, not at every append), `appends` (one row per append: its session, the seq
 * of its first entry, how many entries, their stable JSON one per line (stable JSON holds no raw
 * newline; an image's or a file's large `data` replaced by a reference to its blob), and `at`, the
 * time of the append; unique on (session, seq)), `blobs` (bytes stored once, keyed by their
 * SHA-256, shared by every session of the store), `locks` (the writer of
 * each session: pid, host, process start, token) and `store_info` (format, version). A session's
 * length and last activity come from its last `appends` row.
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
CREATE TABLE IF NOT EXISTS appends (
  id INTEGER PRIMARY KEY,
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  count INTEGER NOT NULL,
  bodies TEXT NOT NULL,
  at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS appends_by_session ON appends (session, seq);
CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS locks (
  session TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  start TEXT NOT NULL,
  token TEXT NOT NULL,
  taken_at TEXT NOT NULL
);
`;

/**
 * Creates the tables when missing, migrates a database of an older version to
 * {@link SQLITE_VERSION} (in the same `BEGIN IMMEDIATE` transaction, so that concurrent openers
 * migrate once and a failed migration leaves the file as it was), and refuses a file of another
 * format or of an unknown version.
 */
export function prepareSchema(db: Database, location: string): void {
  db.transaction(() => {
    db.exec(SCHEMA);
    const info = new Map(
      (db.prepare('SELECT key, value FROM store_info').all() as { key: string; value: string }[]).map((row) => [
        row.key,
        row.value,
      ]),
    );
    if (info.get('format') !== FORMAT) {
      throw new HarnessError('store_error', `${location} is not an agent-harness store (format ${info.get('format')})`);
    }
    const version = Number(info.get('version'));
    if (!Number.isInteger(version) || version < 1 || version > SQLITE_VERSION) {
      throw new HarnessError(
        'unsupported_journal_version',
        `${location} has schema version ${info.get('version')}; this library reads versions 1 to ${SQLITE_VERSION}`,
      );
    }
    migrateSqlite(db, version, SQLITE_VERSION);
  }).immediate();
}
