import { HarnessError } from '../core/errors.js';
import type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionStatus,
  SessionSummary,
  StoredJournal,
} from './journal-store.js';
import { waitForLock } from './lock-wait.js';
import { SerialWriter } from './serial-writer.js';
import { checkSessionId } from './session-id.js';
import { checkMeta } from './session-meta.js';
import { sessionStatusAfter } from './session-status.js';
import { sortSummaries } from './sort-summaries.js';
import { journalCorrupt, sessionLocked, sessionNotFound } from './store-errors.js';
import { parseEntry } from './stored-entry.js';

interface MemorySession {
  readonly meta: Readonly<Record<string, string>>;
  /** Entries as stable JSON, so a caller mutating an appended object changes nothing stored. */
  readonly bodies: string[];
  updatedAt: string;
  status: SessionStatus;
  locked: boolean;
}

type MemorySessions = Map<string, MemorySession>;

const named = new Map<string, MemorySessions>();

/**
 * The `memory:` store: journals in this process's memory, gone when it exits. `memory:` alone is
 * a new, private store; `memory:<name>` shares its sessions with every store of that name in the
 * process (handy to hand a store to code that opens it by URL).
 */
export class MemoryStore implements JournalStore {
  readonly location: string;
  readonly #sessions: MemorySessions;
  readonly #writers = new Set<SerialWriter>();
  #closed = false;
  readonly #now: () => Date;

  constructor(name = '', now: () => Date = () => new Date()) {
    this.location = `memory:${name}`;
    this.#now = now;
    if (name === '') this.#sessions = new Map();
    else {
      const shared = named.get(name) ?? new Map();
      named.set(name, shared);
      this.#sessions = shared;
    }
  }

  openWriter(sessionId: string, options: OpenWriterOptions = {}): Promise<JournalWriter> {
    return waitForLock(options.lockWaitMs, () => this.#openWriter(sessionId, options));
  }

  async #openWriter(sessionId: string, options: OpenWriterOptions): Promise<JournalWriter> {
    checkSessionId(sessionId);
    this.#checkOpen();
    const meta = checkMeta(options.meta);
    let session = this.#sessions.get(sessionId);
    if (session?.locked) throw sessionLocked(this.location, sessionId, `pid ${process.pid}, this process`);
    if (!session) {
      session = {
        meta,
        bodies: [],
        updatedAt: this.#now().toISOString(),
        status: 'open',
        locked: false,
      };
      this.#sessions.set(sessionId, session);
    }
    const held = session;
    held.locked = true;
    const writer = new SerialWriter(
      this.location,
      sessionId,
      held.bodies.length,
      {
        write: async (bodies, entries) => {
          held.bodies.push(...bodies);
          held.status = sessionStatusAfter(held.status, entries);
          held.updatedAt = this.#now().toISOString();
        },
        release: async () => {
          held.locked = false;
        },
      },
      (closed) => this.#writers.delete(closed),
    );
    this.#writers.add(writer);
    return writer;
  }

  async read(sessionId: string): Promise<StoredJournal> {
    checkSessionId(sessionId);
    this.#checkOpen();
    const session = this.#sessions.get(sessionId);
    if (!session) throw sessionNotFound(this.location, sessionId);
    const entries = session.bodies.map((body, seq) => {
      const entry = parseEntry(body);
      if (typeof entry === 'string') throw journalCorrupt(this.location, sessionId, seq, entry);
      return entry;
    });
    return { entries, warnings: [], meta: { ...session.meta } };
  }

  async list(): Promise<readonly SessionSummary[]> {
    this.#checkOpen();
    return sortSummaries(
      [...this.#sessions].map(([id, session]) => ({
        id,
        entries: session.bodies.length,
        updatedAt: session.updatedAt,
        status: session.status,
      })),
    );
  }

  #checkOpen(): void {
    if (this.#closed) throw new HarnessError('store_error', `${this.location} is closed`);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#writers].map((writer) => writer.close()));
  }
}
