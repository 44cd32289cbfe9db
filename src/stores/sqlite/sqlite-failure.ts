import { HarnessError } from '../../core/errors.js';
import { describeCause, storeError } from '../store-errors.js';

/** Whether `cause` is SQLite saying the file's pages are damaged (SQLITE_CORRUPT…, SQLITE_NOTADB). */
export function isSqliteDamage(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** What to do about a damaged file, for the end of a message. */
export function damageAdvice(file: string): string {
  return `restore it from a backup, or save what is readable with: sqlite3 '${file}' .recover`;
}

/**
 * A failed call of the `sqlite:` store as a `HarnessError` naming the store and, when there is
 * one, the session: `journal_corrupt` when the file's pages are damaged (what was written cannot
 * be read back), else `store_error`. A `HarnessError` passes through.
 */
export function sqliteFailure(
  location: string,
  file: string,
  sessionId: string | undefined,
  cause: unknown,
): HarnessError {
  if (HarnessError.isInstance(cause)) return cause;
  const where = sessionId === undefined ? location : `session '${sessionId}' in ${location}`;
  if (isSqliteDamage(cause)) {
    return new HarnessError(
      'journal_corrupt',
      `${where}: the database file is damaged (${describeCause(cause)}); ${damageAdvice(file)}`,
      { cause },
    );
  }
  if (sessionId !== undefined) return storeError(location, sessionId, cause);
  return new HarnessError('store_error', `${where}: ${describeCause(cause)}`, { cause });
}
