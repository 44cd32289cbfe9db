import { HarnessError } from '../core/errors.js';
import type { JournalWriter, StoredEntry } from './journal-store.js';
import { storeError } from './store-errors.js';
import { serializeEntries } from './stored-entry.js';

/** What a store does for its writer; {@link SerialWriter} adds checking, queueing and failure handling. */
export interface WriterBackend {
  /**
   * Makes `bodies` (stable JSON, seq `from`, `from+1`, …) durable as one unit, or throws and leaves
   * exactly the entries durable before the call.
   */
  write(bodies: readonly string[], entries: readonly StoredEntry[], from: number): Promise<void>;
  /** Releases the lock and whatever the writer holds; called once. */
  release(): Promise<void>;
}

/**
 * The {@link JournalWriter} every store hands out: entries are checked before anything is written,
 * appends run one at a time in call order, the first failed write turns into `store_error` and
 * makes the writer unusable, and `close` releases the lock once.
 */
export class SerialWriter implements JournalWriter {
  readonly sessionId: string;
  #length: number;
  #queue: Promise<unknown> = Promise.resolve();
  #failure: HarnessError | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    private readonly location: string,
    sessionId: string,
    length: number,
    private readonly backend: WriterBackend,
    private readonly onClose: (writer: SerialWriter) => void = () => {},
  ) {
    this.sessionId = sessionId;
    this.#length = length;
  }

  get length(): number {
    return this.#length;
  }

  append(entries: readonly StoredEntry[]): Promise<void> {
    const run = this.#queue.then(() => this.#appendNow(entries));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #appendNow(entries: readonly StoredEntry[]): Promise<void> {
    if (this.#closing) throw this.#unusable('the writer is closed');
    if (this.#failure) throw this.#unusable(`an earlier write failed: ${this.#failure.message}`);
    const from = this.#length;
    const bodies = serializeEntries(this.sessionId, from, entries);
    if (bodies.length === 0) return;
    try {
      await this.backend.write(bodies, entries, from);
    } catch (error) {
      this.#failure = storeError(this.location, this.sessionId, error);
      throw this.#failure;
    }
    this.#length = from + bodies.length;
  }

  #unusable(why: string): HarnessError {
    return new HarnessError('store_error', `session '${this.sessionId}' in ${this.location}: ${why}`);
  }

  close(): Promise<void> {
    this.#closing ??= this.#queue.then(async () => {
      this.onClose(this);
      await this.backend.release();
    });
    return this.#closing;
  }
}
