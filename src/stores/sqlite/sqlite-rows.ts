import type { HarnessError } from '../../core/errors.js';
import { rehydrateBody } from '../blob-refs.js';
import type { StoredEntry } from '../journal-store.js';
import { journalCorrupt } from '../store-errors.js';
import { parseEntry } from '../stored-entry.js';

/** One `appends` row: the entries of one append, seq `seq` … `seq + count - 1`, one JSON per line. */
export interface AppendRow {
  readonly seq: number;
  readonly count: number;
  readonly bodies: string;
}

/**
 * The entries of a session's `appends` rows (ordered by seq), checked: each row starts where the
 * previous one ended and holds `count` lines, each an entry once its blob references are replaced
 * from `blobs` (hash → base64); otherwise `journal_corrupt` naming the first entry that is
 * missing, unreadable or missing a blob.
 */
export function entriesOfRows(
  location: string,
  sessionId: string,
  rows: readonly AppendRow[],
  blobs: ReadonlyMap<string, string> = new Map(),
): StoredEntry[] {
  const corrupt = (seq: number, why: string): HarnessError => journalCorrupt(location, sessionId, seq, why);
  const entries: StoredEntry[] = [];
  for (const row of rows) {
    if (row.seq !== entries.length) throw corrupt(entries.length, `missing (the next stored seq is ${row.seq})`);
    const lines = row.count === 1 ? [row.bodies] : row.bodies.split('\n');
    for (let i = 0; i < row.count; i++) {
      const line = lines[i];
      if (line === undefined) throw corrupt(row.seq + i, `missing from its append of ${row.count} entries`);
      const body = rehydrateBody(line, blobs);
      if (typeof body !== 'string') throw corrupt(row.seq + i, `its blob ${body.missing} is missing`);
      const entry = parseEntry(body);
      if (typeof entry === 'string') throw corrupt(row.seq + i, entry);
      entries.push(entry);
    }
    if (lines.length > row.count) throw corrupt(row.seq, `its append holds ${lines.length} lines, not ${row.count}`);
  }
  return entries;
}
