import type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionSummary,
  StoredJournal,
} from '../../src/stores/index.js';
import { MemoryStore } from '../../src/stores/index.js';

/**
 * A `memory:` store per session that drops the session once its writer closes (its run ended),
 * so a worker's memory holds the runs in flight and not every run it finished. Only for a
 * benchmark where nothing fails: a run executed again elsewhere would find its journal gone.
 */
export class ForgettingStore implements JournalStore {
  readonly location = 'memory: (forgetting finished sessions)';
  readonly #sessions = new Map<string, MemoryStore>();
  readonly #empty = new MemoryStore();

  /** Sessions held now. */
  get size(): number {
    return this.#sessions.size;
  }

  async openWriter(sessionId: string, options?: OpenWriterOptions): Promise<JournalWriter> {
    let store = this.#sessions.get(sessionId);
    if (store === undefined) {
      store = new MemoryStore();
      this.#sessions.set(sessionId, store);
    }
    const writer = await store.openWriter(sessionId, options);
    const forget = (): void => {
      if (this.#sessions.get(sessionId) === store) this.#sessions.delete(sessionId);
    };
    return {
      sessionId,
      get length() {
        return writer.length;
      },
      append: (entries) => writer.append(entries),
      close: () => writer.close().finally(forget),
    };
  }

  read(sessionId: string): Promise<StoredJournal> {
    return (this.#sessions.get(sessionId) ?? this.#empty).read(sessionId);
  }

  async list(): Promise<readonly SessionSummary[]> {
    const lists = await Promise.all([...this.#sessions.values()].map((store) => store.list()));
    return lists.flat();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((store) => store.close()));
    this.#sessions.clear();
  }
}
