/**
 * One journal entry as stored: plain JSON with a string `type`. Stores treat entries as opaque
 * JSON objects (see `src/core/journal-entry.ts` for the types the loop writes today).
 */
export type StoredEntry = { readonly type: string } & Readonly<Record<string, unknown>>;

/** How a session's last run ended, from its last run-ending entry (see {@link sessionStatusAfter}). */
export type SessionStatus = 'open' | 'done' | 'error' | 'suspended';

/** A durable home for session journals: `memory:`, `jsonl:<folder>`, `sqlite:<file>`, `postgres://…`. */
export interface JournalStore {
  /** Where it lives, for messages: credentials redacted. */
  readonly location: string;
  /**
   * Takes the single-writer lock on a session (created when new) and returns its writer.
   * `meta` is recorded when this call creates the session and ignored for an existing one.
   * Throws HarnessError `session_locked` when another live writer (this or another process) holds it.
   */
  openWriter(sessionId: string, options?: OpenWriterOptions): Promise<JournalWriter>;
  /**
   * The session's entries in order. A torn last batch (crash mid-write) is dropped and reported in
   * `warnings`; a corrupt entry elsewhere throws `journal_corrupt` naming the session and the
   * entry's seq; an unknown session throws `session_not_found`.
   */
  read(sessionId: string): Promise<StoredJournal>;
  /** Every session with its entry count, last activity (ISO-8601) and status, ordered by id. */
  list(): Promise<readonly SessionSummary[]>;
  /**
   * Optional: checks the whole store for damage below the entries (a `sqlite:` file's pages) and
   * returns what it found, empty when nothing. `list` does not read every entry, so a damaged
   * session can list as healthy; `agent-harness sessions` calls this to say so.
   */
  check?(): Promise<readonly string[]>;
  /** Releases everything (writers still open are closed). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link JournalStore.openWriter}. */
export interface OpenWriterOptions {
  /** String metadata stored with a new session (ignored when the session exists). */
  readonly meta?: Readonly<Record<string, string>>;
  /**
   * How long to keep trying while another writer holds the lock, in ms (default 0: fail at once).
   * Useful right after a crash: a postgres server frees a dead writer's lock once it notices.
   */
  readonly lockWaitMs?: number;
}

/** The one writer of a session, holding its lock until closed. */
export interface JournalWriter {
  /** The session written. */
  readonly sessionId: string;
  /** Entries durable so far (= the seq of the next entry). */
  readonly length: number;
  /**
   * Appends `entries` at seq `length`, `length+1`, … as ONE durable unit (all or none); resolves once
   * durable per the store's policy. Calls are queued, never interleaved. An entry that is not a JSON
   * object with a string `type` is refused with `invalid_argument` before anything is written (the
   * writer stays usable). A failed write rejects with `store_error` naming the session and the cause,
   * leaves exactly the entries durable before the call, and makes the writer unusable.
   */
  append(entries: readonly StoredEntry[]): Promise<void>;
  /** Releases the lock. Idempotent. */
  close(): Promise<void>;
}

/** A session read back from a store. */
export interface StoredJournal {
  /** The entries, seq 0 first. */
  readonly entries: readonly StoredEntry[];
  /** What was dropped or repaired while reading (a torn last batch), for the user to see. */
  readonly warnings: readonly string[];
  /** The metadata given when the session was created. */
  readonly meta: Readonly<Record<string, string>>;
}

/** One line of {@link JournalStore.list}. */
export interface SessionSummary {
  /** The session id. */
  readonly id: string;
  /** Entries durable in the session. */
  readonly entries: number;
  /** Last activity (creation or last append), ISO-8601. */
  readonly updatedAt: string;
  /** How its last run ended. */
  readonly status: SessionStatus;
}
