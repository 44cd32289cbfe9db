import { readFile } from 'node:fs/promises';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { stableJson } from '../core/stable-json.js';
import { writePrivateFile } from '../stores/private-file.js';
import { checkEntry } from './journal-check.js';
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
 * The entries of a journal file, carrying the `version` its header gives: `Session.replay` reads
 * it, so a version 1 file's calls still owed are in doubt (SPEC §8). `version` is not enumerable
 * (the entries compare and serialise as a plain array), and a copy (`slice`, a spread) loses it:
 * pass `Session.replay(copy, config, { journalVersion })` then. Optional in the type, so that any
 * `JournalEntry[]` can still be assigned where a parsed journal was.
 */
export type ParsedJournal = JournalEntry[] & { readonly version?: number };

/** Options of {@link parseJournal} and `readJournalFile`. */
export interface ReadJournalOptions {
  /** Names the journal in messages (its path); default `the journal`. */
  readonly source?: string;
  /**
   * Told when a torn last line is dropped; default `process.emitWarning` (an
   * `AgentHarnessWarning` on stderr).
   */
  readonly onWarning?: (message: string) => void;
}

function emitWarning(message: string): void {
  process.emitWarning(message, { type: 'AgentHarnessWarning' });
}

/**
 * Reads {@link serializeJournal} output, or a journal appended line by line (`run --journal`).
 * A torn last line (no newline after it and not JSON: a write cut short by a crash, never
 * complete) is dropped with a warning. Refuses unknown versions (`unsupported_journal_version`),
 * a line that is not JSON anywhere else (`journal_corrupt`, naming the line), a missing header
 * and entries of the wrong shape (`invalid_journal`). The entries carry the header's `version`
 * ({@link ParsedJournal}).
 */
export function parseJournal(text: string, options: ReadJournalOptions = {}): ParsedJournal {
  const source = options.source ?? 'the journal';
  const lines = text.split('\n');
  const numbered = lines.map((line, i) => ({ line, number: i + 1 })).filter(({ line }) => line.trim() !== '');
  const last = numbered.at(-1);
  // Only the last line can be torn, and only when nothing (no newline) follows it.
  if (last !== undefined && numbered.length > 1 && !text.endsWith('\n') && !isJson(last.line)) {
    numbered.pop();
    (options.onWarning ?? emitWarning)(
      `${source}: dropped a torn last line (line ${last.number}, ${Buffer.byteLength(last.line)} bytes without a newline): a write cut short, never complete`,
    );
  }
  const [first, ...rest] = numbered;
  if (first === undefined) throw new HarnessError('invalid_journal', `${source} is empty: no header line`);
  const header = parseLine(first.line, first.number, source, 'invalid_journal') as Partial<JournalHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== 'agent-harness-journal') {
    throw new HarnessError(
      'invalid_journal',
      `${source}: line 1 is not a journal header ({"format":"agent-harness-journal",…})`,
    );
  }
  const version = checkJournalVersion(header.version);
  const entries = rest.map(({ line, number }, i) => checkEntry(parseLine(line, number, source, 'journal_corrupt'), i));
  return Object.defineProperty(entries, 'version', { value: version, enumerable: false }) as ParsedJournal;
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function parseLine(
  line: string,
  lineNumber: number,
  source: string,
  reason: 'invalid_journal' | 'journal_corrupt',
): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new HarnessError(reason, `${source}: line ${lineNumber} is not JSON (${why})`);
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
 * and the line. The entries carry the file's version; see {@link parseJournal}.
 */
export async function readJournalFile(path: string, options: ReadJournalOptions = {}): Promise<ParsedJournal> {
  return parseJournal(await readFile(path, 'utf8'), { source: path, ...options });
}
