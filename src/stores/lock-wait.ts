import { HarnessError } from '../core/errors.js';

/** How often a writer waiting for a lock tries again. */
const RETRY_MS = 25;

/**
 * Runs `open` until it stops failing with `session_locked` or `waitMs` have passed (then the last
 * `session_locked` is thrown). With `waitMs` 0 it runs once.
 */
export async function waitForLock<T>(waitMs: number | undefined, open: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + Math.max(0, waitMs ?? 0);
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!HarnessError.isInstance(error) || error.reason !== 'session_locked' || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, Math.max(1, deadline - Date.now()))));
  }
}
