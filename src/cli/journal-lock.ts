import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE } from '../stores/private-file.js';
import { UsageError } from './usage-error.js';

/** A held journal lock. */
export interface JournalLock {
  /** `<journal>.lock`. */
  readonly path: string;
  /** Removes the lock file, if it is still ours (idempotent). */
  release(): void;
}

/** The lock file of a journal. */
export function lockPath(journal: string): string {
  return `${journal}.lock`;
}

function holder(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM'; // it exists, owned by another user
  }
}

function create(path: string): boolean {
  try {
    writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return false;
    throw new UsageError(`--journal: cannot write in the folder '${dirname(path)}' (${String(code ?? error)})`);
  }
}

/**
 * Takes the lock of a journal before the run: `<journal>.lock`, created exclusively, holding
 * this process's id. A lock whose process is gone (or that holds no id) is stale and taken
 * over; a live one is a {@link UsageError} naming its process, so that two runs never write
 * one journal. Creating the lock also proves that the folder is writable.
 */
export function lockJournal(journal: string): JournalLock {
  const path = lockPath(journal);
  if (!create(path)) {
    const pid = holder(path);
    if (pid !== undefined && isRunning(pid)) {
      throw new UsageError(
        `--journal: '${journal}' is in use by another agent-harness run (pid ${pid}); wait for it, or name another file`,
      );
    }
    unlinkSync(path);
    if (!create(path)) throw new UsageError(`--journal: '${journal}' was just taken by another agent-harness run`);
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    if (holder(path) !== process.pid) return;
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
  // Also when the process exits early (`process.exit` on a closed pipe skips every finally).
  process.once('exit', release);
  return { path, release };
}
