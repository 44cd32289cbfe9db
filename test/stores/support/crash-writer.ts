/**
 * The process the crash tests kill: opens a store, takes the writer of one session and appends
 * deterministic entries (see entries.ts) in batches of 1–8 until killed, printing `ready <length>`
 * once it holds the lock and `ack <length>` as soon as each append resolves.
 *
 * Usage: node --import tsx crash-writer.ts <store-url> <session-id> <seed> [fsync]
 */
import { writeSync } from 'node:fs';
import type { FsyncPolicy } from '../../../src/stores/index.js';
import { openStore } from '../../../src/stores/index.js';
import { entriesAt } from './entries.js';
import { prng } from './prng.js';

const [url, sessionId, seed, fsync] = process.argv.slice(2);
if (!url || !sessionId || !seed) throw new Error('usage: crash-writer.ts <store-url> <session-id> <seed> [fsync]');

const say = (line: string) => writeSync(1, `${line}\n`);
const random = prng(Number(seed));
// A writer nobody kills must not run forever.
setTimeout(() => process.exit(3), 60_000).unref();

try {
  const store = await openStore(url, { fsync: (fsync as FsyncPolicy | undefined) ?? 'batch' });
  // A dead writer's postgres lock is freed once the server notices the closed connection.
  const writer = await store.openWriter(sessionId, { lockWaitMs: 10_000 });
  say(`ready ${writer.length}`);
  for (;;) {
    await writer.append(entriesAt(writer.length, 1 + Math.floor(random() * 8)));
    say(`ack ${writer.length}`);
  }
} catch (error) {
  say(`error ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
