import { HarnessError } from '../core/errors.js';

const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Whether `id` is a valid session id (see {@link checkSessionId}). */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}

/**
 * Returns `id` when it is a valid session id: 1–128 characters of `[A-Za-z0-9._-]`, not starting
 * with '.' (it names files in the `jsonl:` store). Otherwise throws `invalid_argument`.
 */
export function checkSessionId(id: unknown): string {
  if (isSessionId(id)) return id;
  throw new HarnessError(
    'invalid_argument',
    `invalid session id ${JSON.stringify(id)}: use 1-128 characters of A-Z a-z 0-9 . _ - not starting with '.'`,
  );
}
