import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';

/** SQLite's default page size, the unit a disk or a bad copy damages. */
const PAGE = 4096;

/**
 * A closed `sqlite:` store at `file` holding sessions `a`, `b`, `c`, each of 30 entries big
 * enough that every session spans many pages; entry `i` of session `s` holds `<s>-entry-<i>`.
 */
export async function storeOfThreeSessions(file: string): Promise<void> {
  const store = await SqliteStore.open(file, { now: () => new Date(0) });
  for (const id of ['a', 'b', 'c']) {
    const writer = await store.openWriter(id, { meta: { model: 'm' } });
    for (let i = 0; i < 30; i++) {
      await writer.append([{ type: 'user_message', content: `${id}-entry-${i} ${'x'.repeat(1500)}` }]);
    }
    await writer.close();
  }
  await store.close();
}

/** Overwrites, with junk, the whole page of `file` that holds the first occurrence of `marker`. */
export function damagePageHolding(file: string, marker: string): void {
  const at = readFileSync(file).indexOf(marker);
  if (at < 0) throw new Error(`${marker} is not in ${file}`);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(PAGE, 0xa5), 0, PAGE, Math.floor(at / PAGE) * PAGE);
  } finally {
    closeSync(fd);
  }
}
