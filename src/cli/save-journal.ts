import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { printableLine } from '../core/printable.js';
import { type ToolTiming, writeTimingFile } from '../inspector/tool-timings.js';
import { writeJournalFile } from '../session/journal-file.js';
import type { Output } from './render-human.js';

/** Where a journal went: the file asked for, a fallback, or nowhere. */
export interface SavedJournal {
  /** The file that holds it, if any. */
  readonly path: string | undefined;
  /** False when it is not where it was asked to go. */
  readonly asked: boolean;
}

function why(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return printableLine(typeof code === 'string' ? code : errorMessage(error));
}

/** A private file name in the system's temporary folder for a journal that could not go to `path`. */
export function fallbackPath(path: string): string {
  return join(tmpdir(), `agent-harness-${randomUUID().slice(0, 8)}-${basename(path)}`);
}

/**
 * Saves a journal and its timing sidecar after a run. When the file asked for cannot be written
 * (disk full, the folder gone), the journal goes to a fallback file (0600) in the temporary
 * folder, named on `err`; a run is never lost to a failed save, and never throws here.
 */
export async function saveJournal(
  path: string,
  journal: readonly JournalEntry[],
  timings: readonly ToolTiming[],
  err: Output,
  meta?: Readonly<Record<string, string>>,
): Promise<SavedJournal> {
  let saved: SavedJournal = { path, asked: true };
  try {
    await writeJournalFile(path, journal, meta);
  } catch (error) {
    const fallback = fallbackPath(path);
    const shown = printableLine(path);
    try {
      await writeJournalFile(fallback, journal, meta);
      err.write(
        `warning: could not save the journal to '${shown}' (${why(error)}); saved it to '${printableLine(fallback)}' instead\n`,
      );
      saved = { path: fallback, asked: false };
    } catch (second) {
      err.write(
        `error: could not save the journal to '${shown}' (${why(error)}), nor to '${printableLine(fallback)}' (${why(second)})\n`,
      );
      return { path: undefined, asked: false };
    }
  }
  await saveTimings(saved.path ?? path, timings, err);
  return saved;
}

/** Writes the timing sidecar of a journal; a failure is a warning on `err`, never thrown. */
export async function saveTimings(path: string, timings: readonly ToolTiming[], err: Output): Promise<void> {
  try {
    await writeTimingFile(path, timings);
  } catch (error) {
    err.write(`warning: could not save the tool timings beside the journal (${why(error)})\n`);
  }
}
