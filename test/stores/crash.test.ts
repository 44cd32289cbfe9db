import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableJson } from '../../src/core/stable-json.js';
import { type JournalStore, openStore } from '../../src/stores/index.js';
import { byDepth } from '../../src/testing/test-depth.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { tempWorkspace } from '../support/workspace.js';
import { CrashChild, type WriterCommand, writerCommand } from './support/crash-child.js';
import { entriesAt } from './support/entries.js';
import { prng } from './support/prng.js';

startPostgresBeforeAll();

/**
 * Kill -9 at random instants, the way SQLite and Temporal test themselves: a child process appends
 * batches and prints each acknowledged length; the parent SIGKILLs it, reopens the store and checks
 * that it holds a valid prefix containing every acknowledged entry, and that the next writer takes
 * the dead one's lock over and continues from there. Reproduce a failure with CRASH_SEED=<seed>.
 */

const KILLS = byDepth({ default: 10, deep: 200 });
/** A new session every so many kills, so the journal (re-read after each kill) stays small. */
const KILLS_PER_SESSION = 25;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

let command: WriterCommand;
beforeAll(async () => {
  command = await writerCommand();
});
afterAll(() => command?.dispose());

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const fsyncPolicies = ['always', 'batch', 'never'] as const;

interface CrashOptions {
  /** Pick an fsync policy at random for each writer (jsonl). */
  readonly pickFsync?: boolean;
  /** An append in flight when its writer died may still commit (postgres: the server finishes it). */
  readonly inFlightMayCommit?: boolean;
}

async function killRepeatedly(
  url: string,
  seed: number,
  { pickFsync, inFlightMayCommit }: CrashOptions = {},
): Promise<void> {
  const random = prng(seed);
  const context = (kill: number, more = '') => `seed ${seed} (CRASH_SEED=${SEED}), kill ${kill}${more}`;
  const store: JournalStore = await openStore(url);
  try {
    let durable = 0;
    let sessionId = '';
    for (let kill = 0; kill < KILLS; kill++) {
      if (kill % KILLS_PER_SESSION === 0) {
        sessionId = `crash-${kill}`;
        durable = 0;
      }
      const fsync = pickFsync ? fsyncPolicies[Math.floor(random() * 3)] : 'batch';
      const child = new CrashChild(command, [url, sessionId, String(Math.floor(random() * 2 ** 31)), fsync ?? 'batch']);
      if (random() < 0.25) {
        // Anywhere from startup through taking the lock to the first appends.
        await sleep(random() * 400);
      } else {
        await child.ready();
        await sleep(random() * 30);
      }
      const ended = await child.kill();
      const where = context(kill, `, fsync ${fsync}, printed ${JSON.stringify(child.other)}`);
      expect(ended, where).toBe('SIGKILL');
      if (child.readyAt !== undefined) {
        // Postgres finishes a statement whose client died: the append in flight at the last kill
        // may commit after the parent's read, though before the dead writer's lock is freed.
        const inFlight = inFlightMayCommit ? 8 : 0;
        const continues = `${where}: the writer continues where the last stopped (${durable})`;
        expect(child.readyAt, continues).toBeGreaterThanOrEqual(durable);
        expect(child.readyAt, continues).toBeLessThanOrEqual(durable + inFlight);
      }
      const read = await store.read(sessionId).catch((error: unknown) => {
        if (child.readyAt === undefined && durable === 0) return undefined; // killed before creating the session
        throw error;
      });
      const entries = read?.entries ?? [];
      expect(entries.length, `${where}: holds every acknowledged entry`).toBeGreaterThanOrEqual(child.acked);
      expect(entries.length, `${where}: loses nothing durable`).toBeGreaterThanOrEqual(durable);
      expect(entries.map((entry) => stableJson(entry)).join('\n'), `${where}: a valid prefix`).toBe(
        entriesAt(0, entries.length)
          .map((entry) => stableJson(entry))
          .join('\n'),
      );
      durable = entries.length;
    }
    // The parent takes the last dead writer's lock over and continues.
    const writer = await store.openWriter(sessionId, { lockWaitMs: 10_000 });
    expect(writer.length, context(KILLS)).toBeGreaterThanOrEqual(durable);
    expect(writer.length, context(KILLS)).toBeLessThanOrEqual(durable + (inFlightMayCommit ? 8 : 0));
    await writer.append(entriesAt(writer.length, 3));
    expect((await store.read(sessionId)).entries).toEqual(entriesAt(0, writer.length));
    await writer.close();
  } finally {
    await store.close();
  }
}

describe(`kill -9 at random instants (${KILLS} kills per store, CRASH_SEED=${SEED})`, () => {
  const timeout = KILLS * 4_000;

  it('jsonl: every fsync policy leaves a valid prefix holding every acknowledged entry', { timeout }, async () => {
    await killRepeatedly(`jsonl:${join(tempWorkspace(), 'journals')}`, SEED, { pickFsync: true });
  });

  it('sqlite: leaves a valid prefix holding every acknowledged entry', { timeout }, async () => {
    await killRepeatedly(`sqlite:${join(tempWorkspace(), 'store.db')}`, SEED + 1);
  });

  it('postgres: leaves a valid prefix holding every acknowledged entry', { timeout }, async () => {
    await killRepeatedly(await freshPostgresUrl(), SEED + 2, { inFlightMayCommit: true });
  });
});
