import { statSync } from 'node:fs';
import { ensureJournalFolder } from './journal-folder.js';
import { type JournalLock, lockJournal } from './journal-lock.js';
import { UsageError } from './usage-error.js';

/** Options of {@link claimJournal}. */
export interface ClaimOptions {
  /** The journal being resumed: it may be written over (it goes on in the same file). */
  readonly resume?: string | undefined;
  /** Write over an existing file (the demo's own journal). */
  readonly overwrite?: boolean;
}

/**
 * Everything about a `--journal` that can be checked before the first model request: its folder
 * is made (0700) or the reason it cannot be; an existing journal of another session is not
 * written over (continue it with `--resume`); nothing but a regular file is replaced; and the
 * lock is taken (see `lockJournal`). Each failure is one {@link UsageError} line.
 */
export function claimJournal(journal: string, options: ClaimOptions = {}): JournalLock {
  ensureJournalFolder(journal);
  // The lock first: a journal that another run is writing exists already, and that run is the news.
  const lock = lockJournal(journal);
  try {
    const stat = statSync(journal, { throwIfNoEntry: false });
    if (stat !== undefined && !stat.isFile()) {
      throw new UsageError(`--journal: '${journal}' is not a regular file`);
    }
    if (stat !== undefined && stat.size > 0 && journal !== options.resume && options.overwrite !== true) {
      throw new UsageError(
        `--journal: '${journal}' already exists; to continue that session use --resume ${journal}, or name a new file`,
      );
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  return lock;
}
