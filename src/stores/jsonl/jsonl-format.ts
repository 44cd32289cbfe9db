import { HarnessError } from '../../core/errors.js';
import { stableJson } from '../../core/stable-json.js';
import type { StoredEntry } from '../journal-store.js';
import { isStoredEntry } from '../stored-entry.js';
import { crc32Hex } from './crc32.js';

/** The `format` of a `jsonl:` session file's header line. */
export const JSONL_FORMAT = 'agent-harness-jsonl';

/** The `jsonl:` file format this library writes; older versions stay readable forever. */
export const JSONL_VERSION = 1;

/** The first line of a session file, written once, atomically, when the session is created. */
export interface JsonlHeader {
  /** Marks the file as a session journal. */
  readonly format: typeof JSONL_FORMAT;
  /** The file format version ({@link JSONL_VERSION}). */
  readonly version: number;
  /** The session id (the file name without `.jsonl`). */
  readonly session: string;
  /** The metadata given when the session was created. */
  readonly meta: Readonly<Record<string, string>>;
}

const NEWLINE = 0x0a;
/** `,"crc":"` + 8 hex digits + `"}`: the fixed end of every entry line. */
const CRC_TAIL = 18;

/** The header line, newline included. */
export function encodeHeader(session: string, meta: Readonly<Record<string, string>>): Buffer {
  const header: JsonlHeader = { format: JSONL_FORMAT, version: JSONL_VERSION, session, meta };
  return Buffer.from(`${stableJson(header)}\n`);
}

/**
 * One entry line, newline included: `{"seq":3,"last":5,"entry":{…},"crc":"1c291ca3"}`. `last` is the
 * seq of the last entry written by the same `append`, so an append cut short is recognisable;
 * the CRC-32 covers every byte before `,"crc"`.
 */
export function encodeLine(seq: number, last: number, body: string): Buffer {
  const covered = Buffer.from(`{"seq":${seq},"last":${last},"entry":${body}`);
  return Buffer.concat([covered, Buffer.from(`,"crc":"${crc32Hex(covered)}"}\n`)]);
}

/** A session file read back. */
export interface ParsedJournal {
  /** The header's metadata. */
  readonly meta: Readonly<Record<string, string>>;
  /** Entries of every complete append. */
  readonly entries: StoredEntry[];
  /** Bytes up to the end of the last complete append: where the next append goes. */
  readonly goodLength: number;
  /** What follows `goodLength` (a torn last append), described for a warning; undefined when nothing does. */
  readonly torn: string | undefined;
}

/** A line's problem, located: the seq it should have held and why it cannot be used. */
interface LineProblem {
  readonly seq: number;
  readonly why: string;
}

type LineResult = { readonly seq: number; readonly last: number; readonly entry: StoredEntry } | string;

function parseLine(line: Buffer): LineResult {
  const end = line.length - CRC_TAIL;
  if (end <= 0 || line.toString('latin1', end, end + 8) !== ',"crc":"' || line.toString('latin1', end + 16) !== '"}') {
    return 'not an entry line';
  }
  if (crc32Hex(line.subarray(0, end)) !== line.toString('latin1', end + 8, end + 16)) return 'checksum mismatch';
  let value: { seq?: unknown; last?: unknown; entry?: unknown };
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  const { seq, last, entry } = value;
  if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(last)) return 'no seq';
  if (!isStoredEntry(entry)) return "entry is not an object with a string 'type'";
  return { seq: seq as number, last: last as number, entry };
}

/**
 * Reads a session file. The entries of every complete append come back; a last append cut
 * short (an unterminated or damaged line, or lines without the one ending their append) is
 * reported in `torn`. Damage followed by a complete append is corruption: `journal_corrupt`
 * naming the seq (`corrupt`), as is a bad header.
 */
export function parseJournalFile(
  bytes: Buffer,
  sessionId: string,
  corrupt: (seq: number | 'header', why: string) => HarnessError,
): ParsedJournal {
  const headerEnd = bytes.indexOf(NEWLINE);
  const meta = parseHeader(headerEnd === -1 ? '' : bytes.toString('utf8', 0, headerEnd), sessionId, corrupt);
  const entries: StoredEntry[] = [];
  let pending: StoredEntry[] = [];
  let pendingLast = -1;
  let goodLength = headerEnd + 1;
  let problem: LineProblem | undefined;
  let offset = goodLength;
  while (offset < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, offset);
    const line = newline === -1 ? 'an unterminated line' : parseLine(bytes.subarray(offset, newline));
    offset = newline === -1 ? bytes.length : newline + 1;
    if (problem) {
      // Damage is a torn tail only if no complete append follows it.
      if (typeof line !== 'string' && line.seq === line.last) throw corrupt(problem.seq, problem.why);
      continue;
    }
    const seq = entries.length + pending.length;
    const why =
      typeof line === 'string'
        ? line
        : line.seq !== seq
          ? `holds seq ${line.seq}`
          : line.last < seq || (pending.length > 0 && line.last !== pendingLast)
            ? `bad append boundary (last ${line.last})`
            : undefined;
    if (why !== undefined || typeof line === 'string') {
      problem = { seq, why: why ?? 'unreadable' };
      continue;
    }
    pending.push(line.entry);
    pendingLast = line.last;
    if (line.seq === line.last) {
      entries.push(...pending);
      pending = [];
      goodLength = offset;
    }
  }
  const tornBytes = bytes.length - goodLength;
  const torn =
    tornBytes > 0
      ? `dropped a torn last append from seq ${entries.length} (${tornBytes} bytes${problem ? `, ${problem.why}` : ', never completed'}), left by a crash or a failed write mid-append`
      : undefined;
  return { meta, entries, goodLength, torn };
}

function parseHeader(
  text: string,
  sessionId: string,
  corrupt: (seq: number | 'header', why: string) => HarnessError,
): Readonly<Record<string, string>> {
  let header: Partial<JsonlHeader>;
  try {
    header = JSON.parse(text) as Partial<JsonlHeader>;
  } catch {
    throw corrupt('header', 'line 1 is not a JSON header');
  }
  if (typeof header !== 'object' || header === null || header.format !== JSONL_FORMAT) {
    throw corrupt('header', `line 1 is not a ${JSONL_FORMAT} header`);
  }
  if (header.version !== JSONL_VERSION) {
    throw new HarnessError(
      'unsupported_journal_version',
      `session '${sessionId}': jsonl format version ${JSON.stringify(header.version)} is not supported; this library reads version ${JSONL_VERSION}`,
    );
  }
  if (header.session !== sessionId) throw corrupt('header', `it names session ${JSON.stringify(header.session)}`);
  return { ...header.meta };
}
