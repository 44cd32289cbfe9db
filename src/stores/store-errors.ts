import { errorMessage, HarnessError } from '../core/errors.js';

/** `store_error`: a write or read of the store failed; names the session and the cause. */
export function storeError(location: string, sessionId: string, cause: unknown): HarnessError {
  if (HarnessError.isInstance(cause) && cause.reason === 'store_error') return cause;
  return new HarnessError('store_error', `session '${sessionId}' in ${location}: ${describeCause(cause)}`, { cause });
}

/** `session_locked`: another live writer holds the session. */
export function sessionLocked(location: string, sessionId: string, holder: string): HarnessError {
  return new HarnessError(
    'session_locked',
    `session '${sessionId}' in ${location} is locked by another live writer (${holder}); close it or wait for it to end`,
  );
}

/** `session_not_found`: no such session in the store. */
export function sessionNotFound(location: string, sessionId: string): HarnessError {
  return new HarnessError('session_not_found', `no session '${sessionId}' in ${location}`);
}

/** `journal_corrupt`: an entry that is not the last one cannot be read back. */
export function journalCorrupt(location: string, sessionId: string, seq: number | 'header', why: string): HarnessError {
  const what = seq === 'header' ? 'its header' : `entry seq ${seq}`;
  return new HarnessError('journal_corrupt', `session '${sessionId}' in ${location}: ${what} is corrupt (${why})`);
}

/** The error code (ENOSPC, EIO, SQLITE_FULL, …) and message of a failure, for users. */
export function describeCause(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  const message = errorMessage(cause);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
