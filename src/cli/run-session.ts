import { randomBytes } from 'node:crypto';
import type { Config } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import { printableLine } from '../core/printable.js';
import { Session } from '../session/session.js';
import type { JournalStore } from '../stores/journal-store.js';
import { UsageError } from './usage-error.js';

/** A new session id: 12 random hex digits. */
export function newSessionId(): string {
  return randomBytes(6).toString('hex');
}

/** Whether `store` holds session `id`. */
export async function hasSession(store: JournalStore, id: string): Promise<boolean> {
  try {
    await store.read(id);
    return true;
  } catch (error) {
    if (HarnessError.isInstance(error) && error.reason === 'session_not_found') return false;
    throw error;
  }
}

/** What a run's session is made with (the agent holds the client and the tools). */
export interface RunSessionParts {
  readonly config: Config;
  /** Stored with a new session. */
  readonly meta: Readonly<Record<string, string>>;
}

/**
 * The session `run` goes on in: `id` loaded from `store` when it holds it (locked for this
 * process: a second live writer gets `session_locked`), else a new one under `id` (or a new id).
 * Continuing needs a stored session; a new one needs a task.
 */
export async function openRunSession(
  store: JournalStore,
  id: string | undefined,
  task: string,
  parts: RunSessionParts,
): Promise<Session> {
  const { config, meta } = parts;
  if (id !== undefined && (await hasSession(store, id))) return Session.load(store, id, { config });
  if (task === '') {
    throw new UsageError(
      `no session '${printableLine(id ?? '')}' in ${printableLine(store.location)} to resume; give a task to start one`,
    );
  }
  return new Session(config, { store, id: id ?? newSessionId(), meta });
}
