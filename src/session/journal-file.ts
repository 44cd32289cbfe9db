import { HarnessError } from '../core/errors.js';
import { stableJson } from '../core/stable-json.js';
import { checkEntry } from './journal-check.js';
import type { JournalEntry } from './journal-entry.js';
import { checkJournalVersion, JOURNAL_VERSION } from './journal-version.js';

/** The first line of a journal file. */
export interface JournalHeader {
  /** Marks the file as a journal. */
  readonly format: 'agent-harness-journal';
  /** The journal format version (see `JOURNAL_VERSION`). */
  readonly version: number;
  /** String metadata of the run (the CLI writes `model`, `inputRatePer1k`, `outputRatePer1k`); optional. */
  readonly meta?: Readonly<Record<string, string>>;
}

/** A journal as JSON Lines: a header line with the version, then one entry per line (stable JSON). */
export function serializeJournal(journal: readonly JournalEntry[], meta?: Readonly<Record<string, string>>): string {
  const header: JournalHeader =
    meta === undefined
      ? { format: 'agent-harness-journal', version: JOURNAL_VERSION }
      : { format: 'agent-harness-journal', version: JOURNAL_VERSION, meta };
  const lines = [stableJson(header)];
  for (const entry of journal) lines.push(stableJson(entry));
  return `${lines.join('\n')}\n`;
}

/**
 * Reads {@link serializeJournal} output. Refuses unknown versions (`unsupported_journal_version`)
 * and malformed lines (`invalid_journal`, naming the line).
 */
export function parseJournal(text: string): JournalEntry[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const [first, ...rest] = lines;
  if (first === undefined) throw new HarnessError('invalid_journal', 'the journal is empty: no header line');
  const header = parseLine(first, 1) as Partial<JournalHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== 'agent-harness-journal') {
    throw new HarnessError('invalid_journal', 'line 1 is not a journal header ({"format":"agent-harness-journal",…})');
  }
  checkJournalVersion(header.version);
  return rest.map((line, i) => checkEntry(parseLine(line, i + 2), i));
}

function parseLine(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new HarnessError('invalid_journal', `line ${lineNumber} is not JSON (${why})`);
  }
}

/**
 * The `meta` of a journal's header line (empty when it has none, or when the line is not a
 * header: {@link parseJournal} reports that).
 */
export function journalMeta(text: string): Readonly<Record<string, string>> {
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  try {
    const meta = (JSON.parse(first) as { meta?: unknown } | null)?.meta;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return {};
    return Object.fromEntries(
      Object.entries(meta).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
    );
  } catch {
    return {};
  }
}
