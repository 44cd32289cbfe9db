import { Observable } from 'rxjs';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';

/** A journal entry with its position, as the log publishes it. */
export interface LogRecord {
  /** Index of the entry in the journal. */
  readonly journalIndex: number;
  /** The entry (frozen). */
  readonly entry: JournalEntry;
}

/** Called synchronously with each entry as it is appended. */
export type AppendListener = (entry: JournalEntry, journalIndex: number) => void;

/**
 * A session's append-only log: the one record of what happened. Entries are frozen as they are
 * appended and published to the listeners at once, so a reader that reads from an index and then
 * follows sees every entry exactly once.
 */
export class JournalLog {
  private entries: JournalEntry[] = [];
  private listeners: readonly AppendListener[] = [];

  /** How many entries the log holds. */
  get length(): number {
    return this.entries.length;
  }

  /**
   * Appends one entry (frozen) and publishes it; returns its index. Every listener gets the
   * entry even when an earlier one throws (the stream and a store must not miss it); the first
   * error is then thrown to the appender.
   */
  append(entry: JournalEntry): number {
    const index = this.entries.push(Object.freeze(entry)) - 1;
    const listeners = this.listeners;
    let failure: { error: unknown } | undefined;
    for (let i = 0; i < listeners.length; i++) {
      try {
        (listeners[i] as AppendListener)(entry, index);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
    return index;
  }

  /**
   * Gives back the room the array grew into (up to half its length again): called as a run
   * ends, so that a session kept afterwards holds its entries and nothing more.
   */
  trim(): void {
    this.entries = this.entries.slice();
  }

  /** The entries from index `start` up to `end` (exclusive; the end by default), as a new array. */
  slice(start = 0, end?: number): JournalEntry[] {
    return this.entries.slice(start, end);
  }

  /** Calls `listener` with every entry appended from now on; returns the function that stops it. */
  listen(listener: AppendListener): () => void {
    this.listeners = this.listeners.concat(listener); // exact size, unlike a spread (see EventBus.subscribe)
    return () => {
      this.listeners = this.listeners.filter((known) => known !== listener);
    };
  }

  /**
   * The log from index `start` on, then live: the entries already there are replayed
   * synchronously on subscription, then each new one as it is appended, with no gap and no
   * duplicate. It never completes (unsubscribe to stop).
   */
  follow(start = 0): Observable<LogRecord> {
    if (!Number.isSafeInteger(start) || start < 0)
      throw new HarnessError('invalid_argument', `follow(start) needs an index >= 0, got ${String(start)}`);
    return new Observable<LogRecord>((subscriber) => {
      // Listen first, then replay: an entry appended by a subscriber's own callback during the
      // replay is delivered once, in order (after the replayed ones, by the index check).
      let next = start;
      const deliver = (entry: JournalEntry, journalIndex: number): void => {
        if (journalIndex !== next) return;
        next++;
        subscriber.next({ journalIndex, entry });
      };
      const stop = this.listen((entry, index) => {
        if (index >= next) {
          // Catch up on anything the replay below has not reached yet, then this one.
          for (let i = next; i < index; i++) deliver(this.entries[i] as JournalEntry, i);
          deliver(entry, index);
        }
      });
      for (let i = next; i < this.entries.length && !subscriber.closed; i = next) {
        deliver(this.entries[i] as JournalEntry, i);
      }
      return stop;
    });
  }
}
