import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { HarnessError } from '../../core/errors.js';
import type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionSummary,
  StoredJournal,
} from '../journal-store.js';
import { waitForLock } from '../lock-wait.js';
import { SerialWriter } from '../serial-writer.js';
import { checkSessionId, isSessionId } from '../session-id.js';
import { checkMeta } from '../session-meta.js';
import { sessionStatusAfter } from '../session-status.js';
import { sortSummaries } from '../sort-summaries.js';
import { describeCause, journalCorrupt, sessionNotFound, storeError } from '../store-errors.js';
import type { FsyncPolicy } from '../store-options.js';
import { JsonlAppender } from './jsonl-appender.js';
import { fsyncFolder, type JsonlFileSystem, nodeFileSystem, writeAll } from './jsonl-file-system.js';
import { encodeHeader, type ParsedJournal, parseJournalFile } from './jsonl-format.js';
import { acquireLockFile, type HeldLock } from './jsonl-lock.js';

/** Options of the `jsonl:` store. */
export interface JsonlStoreOptions {
  /** When to fsync (default `batch`). */
  readonly fsync?: FsyncPolicy;
  /** The file-system calls (default node:fs). */
  readonly fs?: JsonlFileSystem;
}

const SUFFIX = '.jsonl';

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/**
 * The `jsonl:<folder>` store: one file per session, `<id>.jsonl` (mode 0600, folder 0700): a header
 * line with the format version and the session's meta, then one checksummed line per entry,
 * appended as it goes. The writer's lock is `<id>.lock`. Open with `openStore('jsonl:<folder>')` or {@link JsonlStore.open}.
 */
export class JsonlStore implements JournalStore {
  readonly location: string;
  readonly #writers = new Set<SerialWriter>();
  #closed = false;

  private constructor(
    /** The absolute path of the folder. */
    readonly folder: string,
    private readonly fs: JsonlFileSystem,
    private readonly fsync: FsyncPolicy,
  ) {
    this.location = `jsonl:${folder}`;
  }

  /** Opens (creating when missing) the folder. */
  static async open(folder: string, options: JsonlStoreOptions = {}): Promise<JsonlStore> {
    const store = new JsonlStore(resolve(folder), options.fs ?? nodeFileSystem, options.fsync ?? 'batch');
    try {
      await store.fs.mkdir(store.folder, 0o700);
    } catch (error) {
      throw new HarnessError('store_error', `cannot create the folder of ${store.location}: ${describeCause(error)}`, {
        cause: error,
      });
    }
    return store;
  }

  #file(sessionId: string): string {
    return join(this.folder, `${sessionId}${SUFFIX}`);
  }

  openWriter(sessionId: string, options: OpenWriterOptions = {}): Promise<JournalWriter> {
    return waitForLock(options.lockWaitMs, () => this.#openWriter(sessionId, options));
  }

  async #openWriter(sessionId: string, options: OpenWriterOptions): Promise<JournalWriter> {
    checkSessionId(sessionId);
    this.#checkOpen();
    const meta = checkMeta(options.meta);
    let lock: HeldLock;
    try {
      lock = await acquireLockFile(this.fs, join(this.folder, `${sessionId}.lock`), sessionId, this.location);
    } catch (error) {
      throw HarnessError.isInstance(error) ? error : storeError(this.location, sessionId, error);
    }
    try {
      const { length, size } = await this.#prepareFile(sessionId, meta);
      const fd = await this.fs.open(this.#file(sessionId), 'r+', 0o600);
      const appender = new JsonlAppender(this.fs, fd, size, this.fsync);
      const writer = new SerialWriter(
        this.location,
        sessionId,
        length,
        {
          write: (bodies, _entries, from) => appender.append(bodies, from),
          release: async () => {
            await appender.close().catch(() => {});
            await lock.release().catch(() => {});
          },
        },
        (closed) => this.#writers.delete(closed),
      );
      this.#writers.add(writer);
      return writer;
    } catch (error) {
      await lock.release().catch(() => {});
      throw HarnessError.isInstance(error) ? error : storeError(this.location, sessionId, error);
    }
  }

  /** Creates the session file, or cuts a torn tail off an existing one; returns its entries and bytes. */
  async #prepareFile(sessionId: string, meta: Readonly<Record<string, string>>) {
    const file = this.#file(sessionId);
    await this.#removeLeftovers(sessionId);
    const parsed = await this.#parse(sessionId);
    if (!parsed) {
      const header = encodeHeader(sessionId, meta);
      await this.#createAtomically(file, header);
      return { length: 0, size: header.length };
    }
    if (parsed.torn !== undefined) {
      const fd = await this.fs.open(file, 'r+', 0o600);
      try {
        await this.fs.ftruncate(fd, parsed.goodLength);
        if (this.fsync !== 'never') await this.fs.fsync(fd);
      } finally {
        await this.fs.close(fd);
      }
    }
    return { length: parsed.entries.length, size: parsed.goodLength };
  }

  /** Temporary files of a creation cut short by a crash (only the lock holder creates the file). */
  async #removeLeftovers(sessionId: string): Promise<void> {
    const prefix = `${sessionId}${SUFFIX}.`;
    const names = await this.fs.readdir(this.folder);
    for (const name of names) {
      if (name.startsWith(prefix) && name.endsWith('.tmp'))
        await this.fs.unlink(join(this.folder, name)).catch(() => {});
    }
  }

  async #createAtomically(file: string, content: Buffer): Promise<void> {
    const temporary = `${file}.${randomUUID()}.tmp`;
    const fd = await this.fs.open(temporary, 'wx', 0o600);
    try {
      try {
        await writeAll(this.fs, fd, content, 0);
        if (this.fsync !== 'never') await this.fs.fsync(fd);
      } finally {
        await this.fs.close(fd);
      }
      await this.fs.rename(temporary, file);
    } catch (error) {
      await this.fs.unlink(temporary).catch(() => {});
      throw error;
    }
    if (this.fsync !== 'never') await fsyncFolder(this.fs, this.folder);
  }

  async #parse(sessionId: string): Promise<ParsedJournal | undefined> {
    let bytes: Buffer;
    try {
      bytes = await this.fs.readFile(this.#file(sessionId));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw storeError(this.location, sessionId, error);
    }
    return parseJournalFile(bytes, sessionId, (seq, why) => journalCorrupt(this.location, sessionId, seq, why));
  }

  async read(sessionId: string): Promise<StoredJournal> {
    checkSessionId(sessionId);
    this.#checkOpen();
    const parsed = await this.#parse(sessionId);
    if (!parsed) throw sessionNotFound(this.location, sessionId);
    const warnings = parsed.torn === undefined ? [] : [`session '${sessionId}' in ${this.location}: ${parsed.torn}`];
    return { entries: parsed.entries, warnings, meta: parsed.meta };
  }

  /** Every session file, parsed: O(total size). A corrupt file throws `journal_corrupt`. */
  async list(): Promise<readonly SessionSummary[]> {
    this.#checkOpen();
    let names: string[];
    try {
      names = await this.fs.readdir(this.folder);
    } catch (error) {
      throw new HarnessError('store_error', `cannot list ${this.location}: ${describeCause(error)}`, { cause: error });
    }
    const ids = names
      .filter((name) => name.endsWith(SUFFIX))
      .map((name) => name.slice(0, -SUFFIX.length))
      .filter(isSessionId);
    const summaries: SessionSummary[] = [];
    for (const id of ids) {
      const parsed = await this.#parse(id);
      if (!parsed) continue;
      const stat = await this.fs.stat(this.#file(id));
      summaries.push({
        id,
        entries: parsed.entries.length,
        updatedAt: new Date(stat.mtimeMs).toISOString(),
        status: sessionStatusAfter('open', parsed.entries),
      });
    }
    return sortSummaries(summaries);
  }

  #checkOpen(): void {
    if (this.#closed) throw new HarnessError('store_error', `${this.location} is closed`);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#writers].map((writer) => writer.close()));
  }
}
