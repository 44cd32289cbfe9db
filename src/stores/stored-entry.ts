import { errorMessage, HarnessError } from '../core/errors.js';
import { stableJson } from '../core/stable-json.js';
import type { StoredEntry } from './journal-store.js';

/** Whether `value` is a JSON object with a string `type`, as every stored entry is. */
export function isStoredEntry(value: unknown): value is StoredEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * The stable JSON of each entry, checked before anything is written: an entry that is not a JSON
 * object with a string `type`, or has no JSON form, is refused with `invalid_argument`.
 */
export function serializeEntries(sessionId: string, from: number, entries: readonly StoredEntry[]): string[] {
  if (!Array.isArray(entries)) throw new HarnessError('invalid_argument', 'append takes an array of entries');
  return entries.map((entry, i) => {
    const where = `entry seq ${from + i} of session '${sessionId}'`;
    if (!isStoredEntry(entry))
      throw new HarnessError('invalid_argument', `${where} is not an object with a string 'type'`);
    try {
      return stableJson(entry);
    } catch (error) {
      throw new HarnessError('invalid_argument', `${where} has no JSON form (${errorMessage(error)})`, {
        cause: error,
      });
    }
  });
}

/** Parses one stored entry body; the reason it is not an entry, as a string, when it is not. */
export function parseEntry(body: string): StoredEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return `not JSON: ${errorMessage(error)}`;
  }
  return isStoredEntry(value) ? value : "not an object with a string 'type'";
}
