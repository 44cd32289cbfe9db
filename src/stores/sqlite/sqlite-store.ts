import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { HarnessError } from '../../core/errors.js';
import { blobReferences } from '../blob-refs.js';
import { holdToken, isLockLive, releaseToken } from '../held-tokens.js';
import type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionStatus,
  SessionSummary,
  StoredJournal,
} from '../journal-store.js';
import { loadNative } from '../load-optional.js';
import { waitForLock } from '../lock-wait.js';
import { currentOwner, describeOwner } from '../process-liveness.js';
import { SerialWriter } from '../serial-writer.js';
import { checkSessionId } from '../session-id.js';
import { checkMeta, parseMeta } from '../session-meta.js';
import { isSessionStatus } from '../session-status.js';
import { describeCause, journalCorrupt, sessionLocked, sessionNotFound } from '../store-errors.js';
import type { SqliteSynchronous } from '../store-options.js';
import { sqliteAppender } from './sqlite-append.js';
import { isSqliteDamage, sqliteFailure } from './sqlite-failure.js';
import { probeSqlite } from './sqlite-probe.js';
import { type AppendRow, entriesOfRows } from './sqlite-rows.js';
import { prepareSchema, type SQLITE_VERSION } from './sqlite-schema.js';

/** Options of the `sqlite:` store. */
export interface SqliteStoreOptions {
  /** The `synchronous` pragma (default `normal`). */
  readonly synchronous?: SqliteSynchronous;
  /** More pragmas to set on the connection, e.g. `{ cache_size: -64000 }` (names: letters and `_`). */
  readonly pragmas?: Readonly<Record<string, string | number>>;
  /** The clock for `updatedAt`. */
  readonly now?: () => Date;
}

function pragma(name: string, value: string | number): string {
  if (!/^[A-Za-z_]+$/.test(name) || !/^[A-Za-z0-9_-]+$/.test(String(value))) {
    throw new HarnessError(
      'invalid_argument',
      `invalid sqlite pragma ${JSON.stringify(name)} = ${JSON.stringify(value)}`,
    );
  }
  return `${name} = ${value}`;
}

interface SessionRow {
  readonly meta: string;
  readonly status: string;
  readonly entries: number;
}

interface LockRow {
  readonly pid: number;
  readonly host: string;
  readonly start: string;
  readonly token: string;
}

/**
 * The `sqlite:<file>` store (better-sqlite3, WAL mode, schema {@link SQLITE_VERSION}): every
 * append is one transaction that inserts its entries and the blobs they reference (see
 * `sqliteAppender` and `externalizeBlobs`), and the writer's lock is a row in `locks` naming its
 * process, taken over once that process is gone (or, in this process, once its writer has closed). Older databases are migrated on open. Calls are
 * synchronous underneath: a busy database blocks the thread for up to 5 s.
 */
export class SqliteStore implements JournalStore {
  readonly location: string;
  readonly #writers = new Set<SerialWriter>();
  readonly #statements = new Map<string, Statement>();
  #closed = false;

  private constructor(
    private readonly db: Database,
    private readonly file: string,
    private readonly now: () => Date,
  ) {
    this.location = `sqlite:${file}`;
  }

  /** Opens (creating when missing, mode 0600) the database file. */
  static async open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    const path = resolve(file);
    const location = `sqlite:${path}`;
    const { synchronous = 'normal' } = options;
    if (synchronous !== 'normal' && synchronous !== 'full') {
      throw new HarnessError(
        'invalid_argument',
        `${location}: option synchronous must be 'normal' or 'full', not ${JSON.stringify(synchronous)}`,
      );
    }
    const { default: Sqlite } = await loadNative(
      'better-sqlite3',
      'the sqlite: store',
      () => import('better-sqlite3'),
      probeSqlite,
    );
    let db: Database | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, 'a', 0o600));
      db = new Sqlite(path);
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      db.pragma('busy_timeout = 5000');
      for (const [name, value] of Object.entries(options.pragmas ?? {})) db.pragma(pragma(name, value));
      prepareSchema(db, location);
    } catch (error) {
      db?.close();
      if (HarnessError.isInstance(error) || isSqliteDamage(error))
        throw sqliteFailure(location, path, undefined, error);
      throw new HarnessError('store_error', `cannot open ${location}: ${describeCause(error)}`, { cause: error });
    }
    return new SqliteStore(db, path, options.now ?? (() => new Date()));
  }

  openWriter(sessionId: string, options: OpenWriterOptions = {}): Promise<JournalWriter> {
    return waitForLock(options.lockWaitMs, () => this.#openWriter(sessionId, options));
  }

  async #openWriter(sessionId: string, options: OpenWriterOptions): Promise<JournalWriter> {
    checkSessionId(sessionId);
    const meta = checkMeta(options.meta);
    this.#checkOpen();
    const token = randomUUID();
    let length: number;
    let status: SessionStatus;
    try {
      ({ length, status } = this.db
        .transaction(() => {
          this.#takeLock(sessionId, token);
          return this.#ensureSession(sessionId, meta);
        })
        .immediate());
    } catch (error) {
      throw sqliteFailure(this.location, this.file, sessionId, error);
    }
    holdToken(token);
    let current = status;
    const append = sqliteAppender(this.db, (source) => this.#sql(source), sessionId, token, this.now);
    const writer = new SerialWriter(
      this.location,
      sessionId,
      length,
      {
        write: async (bodies, entries, from) => {
          current = append(bodies, entries, from, current);
        },
        release: async () => {
          releaseToken(token);
          try {
            if (this.db.open) this.#sql('DELETE FROM locks WHERE session = ? AND token = ?').run(sessionId, token);
          } catch {
            // The row stays: stale at once for this process (releaseToken), for others when it ends.
          }
        },
      },
      (closed) => this.#writers.delete(closed),
    );
    this.#writers.add(writer);
    return writer;
  }

  #takeLock(sessionId: string, token: string): void {
    const held = this.#sql('SELECT pid, host, start, token FROM locks WHERE session = ?').get(sessionId) as
      | LockRow
      | undefined;
    if (held && isLockLive(held)) throw sessionLocked(this.location, sessionId, describeOwner(held));
    const me = currentOwner();
    this.#sql(
      'INSERT OR REPLACE INTO locks (session, pid, host, start, token, taken_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(sessionId, me.pid, me.host, me.start, token, this.now().toISOString());
  }

  #ensureSession(sessionId: string, meta: Readonly<Record<string, string>>) {
    const row = this.#sql('SELECT meta, status, entries FROM sessions WHERE id = ?').get(sessionId) as
      | SessionRow
      | undefined;
    if (!row) {
      const at = this.now().toISOString();
      this.#sql(
        "INSERT INTO sessions (id, meta, created_at, updated_at, status, entries) VALUES (?, ?, ?, ?, 'open', 0)",
      ).run(sessionId, JSON.stringify(meta), at, at);
      return { length: 0, status: 'open' as SessionStatus };
    }
    const next = this.#sql(
      'SELECT COALESCE((SELECT seq + count FROM appends WHERE session = ? ORDER BY seq DESC LIMIT 1), 0) AS n',
    ).get(sessionId) as {
      n: number;
    };
    if (next.n < row.entries) {
      throw journalCorrupt(this.location, sessionId, next.n, `missing (sessions says at least ${row.entries} entries)`);
    }
    return { length: next.n, status: isSessionStatus(row.status) ? row.status : 'open' };
  }

  async read(sessionId: string): Promise<StoredJournal> {
    checkSessionId(sessionId);
    this.#checkOpen();
    let row: SessionRow | undefined;
    let appends: AppendRow[];
    let blobs: Map<string, string>;
    try {
      ({ row, appends, blobs } = this.db
        .transaction(() => {
          const row = this.#sql('SELECT meta, status, entries FROM sessions WHERE id = ?').get(sessionId) as
            | SessionRow
            | undefined;
          const appends = this.#sql('SELECT seq, count, bodies FROM appends WHERE session = ? ORDER BY seq').all(
            sessionId,
          ) as AppendRow[];
          return { row, appends, blobs: this.#blobsOf(appends) };
        })
        .deferred());
    } catch (error) {
      throw sqliteFailure(this.location, this.file, sessionId, error);
    }
    if (!row) throw sessionNotFound(this.location, sessionId);
    const entries = entriesOfRows(this.location, sessionId, appends, blobs);
    if (entries.length < row.entries) {
      throw journalCorrupt(this.location, sessionId, entries.length, `missing (the session holds ${row.entries})`);
    }
    return {
      entries,
      warnings: [],
      meta: parseMeta(row.meta, (why) => journalCorrupt(this.location, sessionId, 'header', why)),
    };
  }

  /** The blobs `appends` reference, as base64 by hash (a missing one is left out). */
  #blobsOf(appends: readonly AppendRow[]): Map<string, string> {
    const blobs = new Map<string, string>();
    for (const append of appends) {
      for (const hash of blobReferences(append.bodies)) {
        if (blobs.has(hash)) continue;
        const blob = this.#sql('SELECT bytes FROM blobs WHERE hash = ?').get(hash) as { bytes: Buffer } | undefined;
        if (blob) blobs.set(hash, blob.bytes.toString('base64'));
      }
    }
    return blobs;
  }

  async list(): Promise<readonly SessionSummary[]> {
    this.#checkOpen();
    // Length and last activity from each session's last append (one index seek per session);
    // `at` is NULL for entries of schema version 1, whose session row still holds the time.
    let rows: { id: string; entries: number; updated_at: string; status: string }[];
    try {
      rows = this.#sql(
        `SELECT s.id, s.status, COALESCE(a.seq + a.count, 0) AS entries, COALESCE(a.at, s.updated_at) AS updated_at
           FROM sessions s LEFT JOIN appends a
             ON a.session = s.id AND a.seq = (SELECT MAX(seq) FROM appends WHERE session = s.id)
           ORDER BY s.id`,
      ).all() as typeof rows;
    } catch (error) {
      throw sqliteFailure(this.location, this.file, undefined, error);
    }
    return rows.map((row) => ({
      id: row.id,
      entries: row.entries,
      updatedAt: row.updated_at,
      status: isSessionStatus(row.status) ? row.status : 'open',
    }));
  }

  /**
   * SQLite's `quick_check` of the whole file: the damage found (empty when none). `list` reads
   * only each session's last append, so a session damaged further back lists as healthy; this
   * reads every page.
   */
  async check(): Promise<readonly string[]> {
    this.#checkOpen();
    try {
      const found = (this.db.prepare('PRAGMA quick_check').all() as { quick_check: string }[]).map(
        (row) => row.quick_check,
      );
      return found.length === 1 && found[0] === 'ok' ? [] : found;
    } catch (error) {
      if (isSqliteDamage(error)) return [describeCause(error)];
      throw sqliteFailure(this.location, this.file, undefined, error);
    }
  }

  /** A prepared statement, prepared once per store. */
  #sql(source: string): Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.db.prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  #checkOpen(): void {
    if (this.#closed) throw new HarnessError('store_error', `${this.location} is closed`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#writers].map((writer) => writer.close()));
    this.db.close();
  }
}
