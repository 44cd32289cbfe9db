import { type JournalStore, type JournalWriter, openStore } from '../../src/index.js';

/**
 * A `memory:` store whose writers fail from their `failAt`-th append on (1-based), as a full disk
 * does: each failing append throws an `ENOSPC` error and writes nothing.
 */
export async function failingStore(failAt: number): Promise<JournalStore> {
  const inner = await openStore('memory:');
  return {
    location: 'memory:failing',
    read: (id) => inner.read(id),
    list: () => inner.list(),
    close: () => inner.close(),
    openWriter: async (id, options) => {
      const writer = await inner.openWriter(id, options);
      let appends = 0;
      const failing: JournalWriter = {
        sessionId: id,
        get length() {
          return writer.length;
        },
        append: async (entries) => {
          appends++;
          if (appends >= failAt) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          await writer.append(entries);
        },
        close: () => writer.close(),
      };
      return failing;
    },
  };
}
