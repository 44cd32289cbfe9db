import { HarnessError } from '../core/errors.js';
import type { JournalWriter, StoredEntry } from '../stores/journal-store.js';
import { storeError } from '../stores/store-errors.js';
import type { JournalLog } from './journal-log.js';

/** Called once, with the error, when a session's store fails. */
export type StoreFailureListener = (error: HarnessError) => void;

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * A session's store, as one more reader of its log: every entry appended to the log from
 * `from` on is handed to a {@link JournalWriter}. Entries appended in one synchronous stretch
 * (one machine step) go in one append, one durable unit, started on the next promise job, so a
 * tool result is on its way as soon as its call settles and a turn's entries are one
 * transaction. {@link SessionWriter.settled} is the barrier the loop awaits at the durable points
 * of SPEC §8 (before a tool runs, before a model request, before an event reaches a reader).
 *
 * The first failed write (or a writer that cannot be opened) is final: nothing appended after
 * the last durable entry is written, the failure listeners are told once, and every later
 * barrier reports it.
 */
export class SessionWriter {
  #writer: JournalWriter | undefined;
  readonly #opening: Promise<JournalWriter | undefined>;
  #pending: StoredEntry[] = [];
  /** The flush of `#pending`, once scheduled; resolves when that append has settled. */
  #next: Promise<void> | undefined;
  /** The last append issued; never rejects. */
  #last: Promise<void> = RESOLVED;
  /** Entries handed to the writer (durable or on their way), and entries known durable. */
  #issued = 0;
  #durable = 0;
  #failure: HarnessError | undefined;
  /** Appends waiting for the writer to open: later ones must queue behind them, not overtake. */
  #waitingForOpen = 0;
  #listeners: StoreFailureListener[] = [];
  readonly #stop: () => void;
  #closing: Promise<void> | undefined;
  #closed = false;

  /**
   * @param writer the store's writer, or the promise of it (a session made with `new Session`
   *   opens its writer while the caller goes on; a failure to open is the writer's first failure).
   * @param log the session's log.
   * @param from the first log index this writer has to write (entries before it are stored).
   * @param label names the session in errors.
   */
  constructor(
    writer: JournalWriter | Promise<JournalWriter>,
    log: JournalLog,
    from: number,
    private readonly label: { readonly location: string; readonly sessionId: string },
  ) {
    this.#issued = from;
    this.#durable = from;
    if (isPromise(writer)) {
      this.#opening = writer.then(
        (opened) => {
          this.#writer = opened;
          return opened;
        },
        (error: unknown) => {
          this.#fail(error);
          return undefined;
        },
      );
      this.#last = this.#opening.then(() => {});
    } else {
      this.#writer = writer;
      this.#opening = Promise.resolve(writer);
    }
    this.#stop = log.listen((entry, index) => {
      if (index < from || this.#failure !== undefined || this.#closing !== undefined) return;
      this.#pending.push(entry as StoredEntry);
      // A promise job rather than queueMicrotask: Node wraps each of those in an AsyncResource.
      this.#next ??= RESOLVED.then(() => this.#flush());
    });
  }

  /** The failure that ended this writer, if one did; once closed, that it is closed. */
  get failure(): HarnessError | undefined {
    if (this.#failure === undefined && this.#closed) {
      return new HarnessError(
        'store_error',
        `session '${this.label.sessionId}' in ${this.label.location} was closed; load it again to go on`,
      );
    }
    return this.#failure;
  }

  /** Entries of the log known durable (its length when everything is). */
  get durableLength(): number {
    return this.#durable;
  }

  /** Calls `listener` once if the store fails (at once if it already has); returns the function that stops it. */
  onFailure(listener: StoreFailureListener): () => void {
    if (this.#failure !== undefined) {
      listener(this.#failure);
      return () => {};
    }
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((known) => known !== listener);
    };
  }

  /**
   * Undefined when every entry appended so far is durable (or the writer has failed: see
   * {@link SessionWriter.failure}); otherwise a promise, never rejected, that settles once they
   * are durable or the writer has failed.
   */
  settled(): Promise<void> | undefined {
    if (this.#failure !== undefined) return undefined;
    if (this.#next !== undefined) return this.#next;
    return this.#durable < this.#issued ? this.#last : undefined;
  }

  /** Resolves once every entry appended so far is durable; rejects with the store's failure. */
  async durable(): Promise<void> {
    await this.settled();
    await this.#opening;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes what is pending, then releases the writer's lock. Idempotent; reports a failure. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.settled();
      this.#stop();
      const writer = await this.#opening;
      await writer?.close();
      this.#closed = true;
    })();
    return this.#closing.then(() => {
      if (this.#failure !== undefined) throw this.#failure;
    });
  }

  #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#next = undefined;
    if (this.#failure !== undefined || batch.length === 0) return RESOLVED;
    this.#issued += batch.length;
    const upTo = this.#issued;
    const writer = this.#writer;
    // Once the writer is open, a batch goes straight to it, unless batches flushed while it was
    // opening have not been handed to it yet: this one then queues behind them (in order).
    let append: Promise<void>;
    if (writer !== undefined && this.#waitingForOpen === 0) append = writer.append(batch);
    else {
      this.#waitingForOpen++;
      append = this.#opening.then((opened) => {
        this.#waitingForOpen--;
        if (opened === undefined) throw this.#failure;
        return opened.append(batch);
      });
    }
    this.#last = append.then(
      () => {
        if (this.#failure === undefined) this.#durable = upTo;
      },
      (error: unknown) => this.#fail(error),
    );
    return this.#last;
  }

  #fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    const failure = HarnessError.isInstance(error)
      ? error
      : storeError(this.label.location, this.label.sessionId, error);
    this.#failure = failure;
    this.#pending = [];
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) {
      try {
        listener(failure);
      } catch {
        // A listener's own failure must not hide the store's.
      }
    }
  }
}

function isPromise(value: JournalWriter | Promise<JournalWriter>): value is Promise<JournalWriter> {
  return typeof (value as { then?: unknown }).then === 'function';
}
