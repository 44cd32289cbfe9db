import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/**
 * Resolves a `--journal` path, refusing an empty name and a folder. Where it can be written
 * is checked by {@link claimJournal} before the run: finding out after a paid run that the
 * journal cannot be written would lose it.
 */
export function journalPath(text: string): string {
  if (text.trim() === '') throw new UsageError('--journal needs a file name');
  const path = resolve(text);
  const isFolder = (() => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false; // missing, or under a file: claimJournal says so
    }
  })();
  if (isFolder) {
    throw new UsageError(`--journal: '${path}' is a folder, not a file`);
  }
  return path;
}
