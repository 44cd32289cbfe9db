import type { SessionStatus, StoredEntry } from './journal-store.js';

/**
 * The status after `entries` are appended to a session whose status was `status`: the last
 * run-ending entry decides (`agent_end` → done, `agent_error` → error, or suspended when its
 * reason is `suspended`), and a `user_message` after it opens the session again.
 */
export function sessionStatusAfter(status: SessionStatus, entries: readonly StoredEntry[]): SessionStatus {
  let next = status;
  for (const entry of entries) {
    if (entry.type === 'user_message') next = 'open';
    else if (entry.type === 'agent_end') next = 'done';
    else if (entry.type === 'agent_error') next = entry.reason === 'suspended' ? 'suspended' : 'error';
  }
  return next;
}

/** Whether a stored status string is a {@link SessionStatus}. */
export function isSessionStatus(value: unknown): value is SessionStatus {
  return value === 'open' || value === 'done' || value === 'error' || value === 'suspended';
}
