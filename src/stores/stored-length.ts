import { HarnessError } from '../core/errors.js';
import type { JournalStore } from './journal-store.js';

/** How many entries `store` holds for session `id`: 0 for a session it does not hold. */
export async function storedLength(store: JournalStore, id: string): Promise<number> {
  try {
    return (await store.read(id)).entries.length;
  } catch (error) {
    if (HarnessError.isInstance(error) && error.reason === 'session_not_found') return 0;
    throw error;
  }
}
