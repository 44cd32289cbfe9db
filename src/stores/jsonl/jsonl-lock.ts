import { randomUUID } from 'node:crypto';
import { currentOwner, describeOwner, isOwnerAlive, type LockOwner } from '../process-liveness.js';
import { sessionLocked } from '../store-errors.js';
import { type JsonlFileSystem, writeAll } from './jsonl-file-system.js';

interface LockFile extends LockOwner {
  /** Unique per acquisition, so a writer only ever removes its own lock. */
  readonly token: string;
}

function parseLock(text: string): LockFile | undefined {
  try {
    const lock = JSON.parse(text) as Partial<LockFile>;
    if (typeof lock.pid === 'number' && typeof lock.host === 'string' && typeof lock.token === 'string') {
      return { pid: lock.pid, host: lock.host, start: String(lock.start ?? ''), token: lock.token };
    }
  } catch {}
  return undefined;
}

function hasCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}

async function readText(fs: JsonlFileSystem, path: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(path)).toString('utf8');
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** A held lock file; `release` removes it if it is still ours. */
export interface HeldLock {
  /** Removes the lock file when it still holds this acquisition's token. */
  release(): Promise<void>;
}

/**
 * Takes `<id>.lock`: the owner's pid, host, start time and a token are written to a temporary file
 * that is hard-linked into place, so the lock appears complete or not at all. A lock whose owner
 * is dead is stale: it is claimed by renaming it away (only one contender can), checked to be the
 * stale one, removed, and the link is tried again. A live owner → `session_locked`.
 */
export async function acquireLockFile(
  fs: JsonlFileSystem,
  path: string,
  sessionId: string,
  location: string,
): Promise<HeldLock> {
  const mine: LockFile = { ...currentOwner(), token: randomUUID() };
  const text = JSON.stringify(mine);
  const candidate = `${path}.${mine.token}.tmp`;
  const fd = await fs.open(candidate, 'wx', 0o600);
  try {
    try {
      await writeAll(fs, fd, Buffer.from(text), 0);
    } finally {
      await fs.close(fd);
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await fs.link(candidate, path);
        return { release: () => releaseLockFile(fs, path, mine.token) };
      } catch (error) {
        if (!hasCode(error, 'EEXIST')) throw error;
      }
      const held = await readText(fs, path);
      if (held === undefined) continue;
      const holder = parseLock(held);
      if (holder && isOwnerAlive(holder)) throw sessionLocked(location, sessionId, describeOwner(holder));
      await removeStaleLock(fs, path, held, `${path}.${mine.token}.stale`, () =>
        sessionLocked(location, sessionId, 'a writer that took over a stale lock'),
      );
    }
    throw sessionLocked(location, sessionId, 'contended: the lock changed hands while taking it');
  } finally {
    await fs.unlink(candidate).catch(() => {});
  }
}

async function removeStaleLock(
  fs: JsonlFileSystem,
  path: string,
  staleText: string,
  claim: string,
  taken: () => Error,
): Promise<void> {
  try {
    await fs.rename(path, claim);
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return;
    throw error;
  }
  const claimed = await readText(fs, claim);
  if (claimed !== staleText) {
    // Another process replaced the stale lock between our read and our rename: give it back.
    await fs.link(claim, path).catch(() => {});
    await fs.unlink(claim).catch(() => {});
    throw taken();
  }
  await fs.unlink(claim);
}

async function releaseLockFile(fs: JsonlFileSystem, path: string, token: string): Promise<void> {
  const held = await readText(fs, path);
  if (held !== undefined && parseLock(held)?.token === token) await fs.unlink(path);
}
