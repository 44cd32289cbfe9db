import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { JournalEntry } from '../session/journal-entry.js';
import { parseJournal, serializeJournal } from '../session/journal-file.js';

/**
 * Writes a journal file atomically: to a temporary file beside it, then renamed over the
 * target, so a crash never leaves a partial journal under the real name.
 */
export async function writeJournalFile(path: string, journal: readonly JournalEntry[]): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, serializeJournal(journal), 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads and checks a journal file written by {@link writeJournalFile}. */
export async function readJournalFile(path: string): Promise<JournalEntry[]> {
  return parseJournal(await readFile(path, 'utf8'));
}
