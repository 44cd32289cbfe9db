import { readFile } from 'node:fs/promises';
import { HarnessError } from '../../core/errors.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import { stableJson } from '../../core/stable-json.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { checkEntry } from '../../session/journal-check.js';
import { parseJournal } from '../../session/journal-file.js';
import { writePrivateFile } from '../../stores/private-file.js';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette, type CassetteTurn } from './cassette.js';
import { cassetteFromJournal, type JournalCassetteOptions } from './cassette-from-journal.js';

/** The first line of a cassette file. */
interface CassetteHeader {
  readonly format: typeof CASSETTE_FORMAT;
  readonly version: number;
  readonly source: Cassette['source'];
  readonly redact: readonly string[];
  readonly meta?: Readonly<Record<string, string>>;
}

/** How many messages of `next` repeat the start of `previous` (a request usually extends the last). */
function sharedPrefix(previous: readonly Message[], next: readonly Message[]): number {
  let i = 0;
  while (
    i < previous.length &&
    i < next.length &&
    (previous[i] === next[i] || stableJson(previous[i]) === stableJson(next[i]))
  )
    i++;
  return i;
}

/**
 * A cassette as JSON Lines: a header (format, version, source, redaction patterns), then per
 * turn a `request` record (`keep`: how many messages of the previous request it starts with,
 * then the rest; `tools` only when they changed; `wire`, the provider body, when recorded) and an `answer` record, then one `entry` record
 * per journal entry. Stable JSON, so equal cassettes are equal files.
 */
export function serializeCassette(cassette: Cassette): string {
  const header: CassetteHeader = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    source: cassette.source,
    redact: cassette.redact,
    ...(cassette.meta === undefined ? {} : { meta: cassette.meta }),
  };
  const lines = [stableJson(header)];
  let messages: readonly Message[] = [];
  let tools: string | undefined;
  cassette.turns.forEach(({ request, answer }, i) => {
    const keep = sharedPrefix(messages, request.messages);
    const offered = request.tools === undefined ? undefined : stableJson(request.tools);
    lines.push(
      stableJson({
        kind: 'request',
        turn: i + 1,
        keep,
        messages: request.messages.slice(keep),
        ...(offered === undefined || offered === tools ? {} : { tools: request.tools }),
        ...(request.output === undefined ? {} : { output: request.output }),
        ...(request.wire === undefined ? {} : { wire: request.wire }),
      }),
    );
    messages = request.messages;
    tools = offered ?? tools;
    if (answer !== undefined) lines.push(stableJson({ kind: 'answer', turn: i + 1, ...answer }));
  });
  for (const entry of cassette.journal) lines.push(stableJson({ kind: 'entry', entry }));
  return `${lines.join('\n')}\n`;
}

function invalid(source: string, line: number, why: string): HarnessError {
  return new HarnessError('invalid_cassette', `${source}: line ${line} ${why}`);
}

function parseLine(text: string, line: number, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(source, line, `is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(source, line, 'is not an object');
  return value as Record<string, unknown>;
}

function checkHeader(header: Record<string, unknown>, source: string): CassetteHeader {
  const { version } = header;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw invalid(source, 1, `has no cassette version (got ${JSON.stringify(version)})`);
  }
  if (version > CASSETTE_VERSION) {
    throw new HarnessError(
      'unsupported_cassette_version',
      `${source} is a cassette of version ${version}, newer than this library reads (version ${CASSETTE_VERSION} and older): update agent-harness to replay it`,
    );
  }
  if (header.source !== 'recording' && header.source !== 'journal') throw invalid(source, 1, 'has no source');
  const redact = Array.isArray(header.redact) ? header.redact.filter((p): p is string => typeof p === 'string') : [];
  return { ...(header as unknown as CassetteHeader), redact };
}

/** Options of {@link parseCassette} and {@link readCassetteFile}. */
export interface ReadCassetteOptions extends JournalCassetteOptions {
  /** Names the cassette in messages (its path); default `the cassette`. */
  readonly source?: string;
}

/**
 * Reads {@link serializeCassette} output, or a journal file (`run --journal`, `writeJournalFile`),
 * which is a cassette too ({@link cassetteFromJournal}). Refuses a newer cassette version
 * (`unsupported_cassette_version`, naming it), a newer journal version, and malformed lines
 * (`invalid_cassette`, naming the line).
 */
export function parseCassette(text: string, options: ReadCassetteOptions = {}): Cassette {
  const source = options.source ?? 'the cassette';
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const header = parseLine(firstLine, 1, source);
  if (header.format === 'agent-harness-journal') {
    return cassetteFromJournal(parseJournal(text, { source }), options);
  }
  if (header.format !== CASSETTE_FORMAT) {
    throw invalid(source, 1, `is not a cassette header ({"format":"${CASSETTE_FORMAT}",…}) nor a journal header`);
  }
  const checked = checkHeader(header, source);
  const turns: { request: CassetteTurn['request']; answer?: CassetteTurn['answer'] }[] = [];
  const journal: JournalEntry[] = [];
  let messages: readonly Message[] = [];
  let tools: readonly ToolDefinition[] | undefined = checked.source === 'journal' ? undefined : [];
  text.split('\n').forEach((raw, i) => {
    if (i === 0 || raw.trim() === '') return;
    const record = parseLine(raw, i + 1, source);
    if (record.kind === 'request') {
      const keep = typeof record.keep === 'number' ? record.keep : 0;
      if (!Array.isArray(record.messages) || keep > messages.length) throw invalid(source, i + 1, 'is not a request');
      messages = [...messages.slice(0, keep), ...(record.messages as Message[])];
      if (Array.isArray(record.tools)) tools = record.tools as ToolDefinition[];
      const output = record.output as CassetteTurn['request']['output'];
      const wire = record.wire === undefined ? {} : { wire: record.wire };
      turns.push({
        request: { messages, ...(tools === undefined ? {} : { tools }), ...(output ? { output } : {}), ...wire },
      });
    } else if (record.kind === 'answer') {
      const turn = turns[turns.length - 1];
      if (turn === undefined || record.turn !== turns.length || !Array.isArray(record.events)) {
        throw invalid(source, i + 1, 'is not the answer of the request before it');
      }
      const thrown = typeof record.thrown === 'string' ? { thrown: record.thrown } : {};
      turn.answer = { events: record.events, ...thrown };
    } else if (record.kind === 'entry') {
      journal.push(checkEntry(record.entry, journal.length));
    } else throw invalid(source, i + 1, `has an unknown kind ${JSON.stringify(record.kind)}`);
  });
  return {
    version: checked.version,
    source: checked.source,
    turns,
    journal,
    redact: checked.redact,
    ...(checked.meta === undefined ? {} : { meta: checked.meta }),
  };
}

/** Reads a cassette (or journal) file; see {@link parseCassette}. */
export async function readCassetteFile(path: string, options: ReadCassetteOptions = {}): Promise<Cassette> {
  return parseCassette(await readFile(path, 'utf8'), { source: path, ...options });
}

/** Writes a cassette file atomically, private to its owner (mode 0600). */
export async function writeCassetteFile(path: string, cassette: Cassette): Promise<void> {
  await writePrivateFile(path, serializeCassette(cassette));
}
