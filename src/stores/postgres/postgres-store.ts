import { createHash } from 'node:crypto';
import type { Client, Pool } from 'pg';
import { HarnessError } from '../../core/errors.js';
import { redactPassword } from '../../core/redact-url.js';
import { blobReferences, externalizeBlobs, rehydrateBody } from '../blob-refs.js';
import type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionStatus,
  SessionSummary,
  StoredEntry,
  StoredJournal,
} from '../journal-store.js';
import { loadOptional } from '../load-optional.js';
import { waitForLock } from '../lock-wait.js';
import { SerialWriter } from '../serial-writer.js';
import { checkSessionId } from '../session-id.js';
import { checkMeta, parseMeta } from '../session-meta.js';
import { isSessionStatus, sessionStatusAfter } from '../session-status.js';
import { describeCause, journalCorrupt, sessionLocked, sessionNotFound, storeError } from '../store-errors.js';
import { parseEntry } from '../stored-entry.js';
import { type PostgresTables, postgresTables, preparePostgresSchema } from './postgres-schema.js';

/** Options of the `postgres:` store. */
export interface PostgresStoreOptions {
  /** The schema holding the tables (default: the URL's `?schema=`, else `public`). */
  readonly schema?: string;
  /** The clock for `updatedAt`. */
  readonly now?: () => Date;
}

type Pg = typeof import('pg')['default'];

interface EntryRow {
  readonly meta: string;
  readonly entries: number;
  readonly seq: number | null;
  readonly body: string | null;
}

/** Who holds an advisory lock, for the `session_locked` message: its backend pid and name. */
async function lockHolder(client: Client, key: string): Promise<string> {
  try {
    const result = await client.query<{ pid: number; name: string }>(
      `SELECT a.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
         AND l.classid = (($1::bigint >> 32) & 4294967295)::oid AND l.objid = ($1::bigint & 4294967295)::oid`,
      [key],
    );
    const holder = result.rows[0];
    if (holder) return `database backend pid ${holder.pid}${holder.name ? `, '${holder.name}'` : ''}`;
  } catch {
    // Not allowed to see pg_stat_activity: say less.
  }
  return 'another database connection';
}

/**
 * The `postgres://…` store (`pg`, loaded on first use). Each append is one statement, hence one
 * transaction (its entries, and the blobs they reference: see `externalizeBlobs`), durable when it returns (with the server's default `synchronous_commit = on`). The
 * writer's lock is a session-level advisory lock held on the writer's own connection, which also
 * carries its appends: if that connection dies, the lock is freed and the writer fails.
 */
export class PostgresStore implements JournalStore {
  readonly location: string;
  readonly #writers = new Set<SerialWriter>();
  #closed = false;

  private constructor(
    private readonly pg: Pg,
    private readonly pool: Pool,
    private readonly connectionString: string,
    private readonly schema: string,
    private readonly tables: PostgresTables,
    location: string,
    private readonly now: () => Date,
  ) {
    this.location = location;
  }

  /** Connects and creates the tables when missing. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const location = redactPassword(url);
    const parsed = new URL(url);
    const schema = options.schema ?? parsed.searchParams.get('schema') ?? 'public';
    parsed.searchParams.delete('schema');
    const tables = postgresTables(schema);
    const pg = (await loadOptional('pg', 'the postgres: store', () => import('pg'))).default;
    const connectionString = parsed.toString();
    const pool = new pg.Pool({ connectionString, max: 2 });
    pool.on('error', () => {});
    try {
      const client = await pool.connect();
      try {
        await preparePostgresSchema(client, schema, tables, location);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      if (HarnessError.isInstance(error)) throw error;
      throw new HarnessError('store_error', `cannot open ${location}: ${describeCause(error)}`, { cause: error });
    }
    return new PostgresStore(pg, pool, connectionString, schema, tables, location, options.now ?? (() => new Date()));
  }

  /** The advisory lock key of a session: 64 bits of SHA-256 over the schema and id. */
  #lockKey(sessionId: string): string {
    return createHash('sha256').update(`${this.schema}\0${sessionId}`).digest().readBigInt64BE(0).toString();
  }

  openWriter(sessionId: string, options: OpenWriterOptions = {}): Promise<JournalWriter> {
    return waitForLock(options.lockWaitMs, () => this.#openWriter(sessionId, options));
  }

  async #openWriter(sessionId: string, options: OpenWriterOptions): Promise<JournalWriter> {
    checkSessionId(sessionId);
    const meta = checkMeta(options.meta);
    this.#checkOpen();
    const key = this.#lockKey(sessionId);
    const client = new this.pg.Client({
      connectionString: this.connectionString,
      // Shows in pg_stat_activity which connection holds which session's lock.
      application_name: `agent-harness writer ${sessionId}`.slice(0, 63),
      keepAlive: true,
    });
    let lost: unknown;
    client.on('error', (error) => {
      lost ??= error;
    });
    let length: number;
    let status: SessionStatus;
    try {
      await client.connect();
      const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
      if (!locked.rows[0]?.ok) throw sessionLocked(this.location, sessionId, await lockHolder(client, key));
      ({ length, status } = await this.#ensureSession(client, sessionId, meta));
    } catch (error) {
      await client.end().catch(() => {});
      throw HarnessError.isInstance(error) ? error : storeError(this.location, sessionId, error);
    }
    let current = status;
    const writer = new SerialWriter(
      this.location,
      sessionId,
      length,
      {
        write: async (bodies, entries, from) => {
          if (lost !== undefined) throw lost;
          current = await this.#append(client, sessionId, bodies, entries, from, current);
        },
        release: async () => {
          // Unlocking first hands the session on at once; ending the connection would free the
          // lock too, but the server takes a while to notice a closed connection.
          if (lost === undefined) await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => {});
          void client.end().catch(() => {});
        },
      },
      (closed) => this.#writers.delete(closed),
    );
    this.#writers.add(writer);
    return writer;
  }

  async #ensureSession(client: Client, sessionId: string, meta: Readonly<Record<string, string>>) {
    const at = this.now().toISOString();
    await client.query(
      `INSERT INTO ${this.tables.sessions} (id, meta, created_at, updated_at, status, entries)
       VALUES ($1, $2, $3, $3, 'open', 0) ON CONFLICT (id) DO NOTHING`,
      [sessionId, JSON.stringify(meta), at],
    );
    const result = await client.query<{ entries: number; status: string; next: number }>(
      `SELECT s.entries, s.status, (SELECT COALESCE(MAX(seq) + 1, 0) FROM ${this.tables.entries} WHERE session = $1) AS next
       FROM ${this.tables.sessions} s WHERE s.id = $1`,
      [sessionId],
    );
    const row = result.rows[0];
    if (!row) throw new Error('the session row vanished');
    if (row.next !== row.entries) {
      throw journalCorrupt(
        this.location,
        sessionId,
        Math.min(row.next, row.entries),
        `sessions says ${row.entries} entries`,
      );
    }
    return { length: row.entries, status: isSessionStatus(row.status) ? row.status : ('open' as SessionStatus) };
  }

  async #append(
    client: Client,
    sessionId: string,
    bodies: readonly string[],
    entries: readonly StoredEntry[],
    from: number,
    status: SessionStatus,
  ): Promise<SessionStatus> {
    const next = sessionStatusAfter(status, entries);
    const stored = externalizeBlobs(bodies);
    const seqs = bodies.map((_, i) => from + i);
    // One statement is one transaction: the blobs, the entries and the session row commit
    // together or not at all; a seq already taken violates the primary key and aborts the whole
    // statement. The blobs' insert runs only when there are blobs.
    const blobs =
      stored.blobs.length === 0
        ? ''
        : `blobs AS (
         INSERT INTO ${this.tables.blobs} (hash, bytes) SELECT * FROM unnest($9::text[], $10::bytea[])
         ON CONFLICT (hash) DO NOTHING
       ), `;
    const blobValues =
      stored.blobs.length === 0 ? [] : [stored.blobs.map((blob) => blob.hash), stored.blobs.map((blob) => blob.bytes)];
    const result = await client.query(
      `WITH ${blobs}inserted AS (
         INSERT INTO ${this.tables.entries} (session, seq, body)
         SELECT $1, s, b FROM unnest($2::integer[], $3::text[]) AS t(s, b)
         RETURNING 1
       )
       UPDATE ${this.tables.sessions} SET entries = $4, updated_at = $5, status = $6
       WHERE id = $1 AND entries = $7 AND (SELECT count(*) FROM inserted) = $8`,
      [
        sessionId,
        seqs,
        stored.bodies,
        from + bodies.length,
        this.now().toISOString(),
        next,
        from,
        bodies.length,
        ...blobValues,
      ],
    );
    if (result.rowCount !== 1) throw new Error(`the session no longer holds ${from} entries`);
    return next;
  }

  async read(sessionId: string): Promise<StoredJournal> {
    checkSessionId(sessionId);
    this.#checkOpen();
    let rows: EntryRow[];
    try {
      // One statement, one snapshot: the session row and exactly the entries it counts.
      rows = (
        await this.pool.query<EntryRow>(
          `SELECT s.meta, s.entries, e.seq, e.body FROM ${this.tables.sessions} s
           LEFT JOIN ${this.tables.entries} e ON e.session = s.id AND e.seq < s.entries
           WHERE s.id = $1 ORDER BY e.seq`,
          [sessionId],
        )
      ).rows;
    } catch (error) {
      throw storeError(this.location, sessionId, error);
    }
    const first = rows[0];
    if (!first) throw sessionNotFound(this.location, sessionId);
    const blobs = await this.#blobsOf(sessionId, rows);
    const entries: StoredEntry[] = [];
    for (const row of rows) {
      if (row.seq === null || row.body === null) break;
      if (row.seq !== entries.length) {
        throw journalCorrupt(this.location, sessionId, entries.length, `missing (the next stored seq is ${row.seq})`);
      }
      const body = rehydrateBody(row.body, blobs);
      if (typeof body !== 'string') {
        throw journalCorrupt(this.location, sessionId, row.seq, `its blob ${body.missing} is missing`);
      }
      const entry = parseEntry(body);
      if (typeof entry === 'string') throw journalCorrupt(this.location, sessionId, row.seq, entry);
      entries.push(entry);
    }
    if (entries.length !== first.entries) {
      throw journalCorrupt(this.location, sessionId, entries.length, `missing (the session holds ${first.entries})`);
    }
    return {
      entries,
      warnings: [],
      meta: parseMeta(first.meta, (why) => journalCorrupt(this.location, sessionId, 'header', why)),
    };
  }

  /**
   * The blobs `rows` reference, as base64 by hash (a missing one is left out). Read after the
   * entries, in another snapshot: a blob commits with the first entry that references it and is
   * never deleted by the store, so every blob a read entry references is there.
   */
  async #blobsOf(sessionId: string, rows: readonly EntryRow[]): Promise<Map<string, string>> {
    const hashes = new Set(rows.flatMap((row) => (row.body === null ? [] : blobReferences(row.body))));
    const blobs = new Map<string, string>();
    if (hashes.size === 0) return blobs;
    try {
      const result = await this.pool.query<{ hash: string; bytes: Buffer }>(
        `SELECT hash, bytes FROM ${this.tables.blobs} WHERE hash = ANY($1::text[])`,
        [[...hashes]],
      );
      for (const row of result.rows) blobs.set(row.hash, row.bytes.toString('base64'));
    } catch (error) {
      throw storeError(this.location, sessionId, error);
    }
    return blobs;
  }

  async list(): Promise<readonly SessionSummary[]> {
    this.#checkOpen();
    const result = await this.pool.query<{ id: string; entries: number; updated_at: string; status: string }>(
      `SELECT id, entries, updated_at, status FROM ${this.tables.sessions} ORDER BY id COLLATE "C"`,
    );
    return result.rows.map((row) => ({
      id: row.id,
      entries: row.entries,
      updatedAt: row.updated_at,
      status: isSessionStatus(row.status) ? row.status : 'open',
    }));
  }

  #checkOpen(): void {
    if (this.#closed) throw new HarnessError('store_error', `${this.location} is closed`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#writers].map((writer) => writer.close()));
    await this.pool.end();
  }
}
