import { readFile } from 'node:fs/promises';
import type { JournalEntry } from '../session/journal-entry.js';
import { parseJournal, type ReadJournalOptions, serializeJournal } from '../session/journal-file.js';
import { writePrivateFile } from './private-file.js';

/**
 * Writes a journal file atomically and private to its owner (mode 0600): to a temporary file
 * beside it, then renamed over the target, so a crash never leaves a partial journal under the
 * real name.
 */
export async function writeJournalFile(
  path: string,
  journal: readonly JournalEntry[],
  meta?: Readonly<Record<string, string>>,
): Promise<void> {
  await writePrivateFile(path, serializeJournal(journal, meta));
}

/**
 * Reads and checks a journal file written by {@link writeJournalFile} or appended as a run went
 * (`run --journal`): a torn last line (a crash mid-append) is dropped with a warning
 * (`options.onWarning`); a line that is not JSON elsewhere is `journal_corrupt` naming the file
 * and the line. See {@link parseJournal}.
 */
export async function readJournalFile(path: string, options: ReadJournalOptions = {}): Promise<JournalEntry[]> {
  return parseJournal(await readFile(path, 'utf8'), { source: path, ...options });
}
