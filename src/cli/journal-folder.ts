import { chmodSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE } from '../stores/private-file.js';
import { UsageError } from './usage-error.js';

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}

/** The entry at `path`, or undefined when there is none (or a file stands where a folder should). */
function entry(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Makes the folder of a journal, and any missing parent, mode 0700 whatever the umask. One
 * level at a time from the nearest existing folder: Node's recursive `mkdir` can loop forever
 * where creating fails with ENOENT (under /proc). A folder that cannot be made is a
 * {@link UsageError} naming it.
 */
export function ensureJournalFolder(journal: string): void {
  const folder = dirname(journal);
  const missing: string[] = [];
  let existing = folder;
  while (entry(existing) === undefined && dirname(existing) !== existing) {
    missing.unshift(existing);
    existing = dirname(existing);
  }
  if (!entry(existing)?.isDirectory()) {
    throw new UsageError(`--journal: cannot create the folder '${folder}': '${existing}' is a file`);
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
      chmodSync(dir, PRIVATE_DIR_MODE);
    } catch (error) {
      throw new UsageError(`--journal: cannot create the folder '${folder}' (${codeOf(error)})`);
    }
  }
}
