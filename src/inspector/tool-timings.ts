import { readFile } from 'node:fs/promises';
import type { Observable } from 'rxjs';
import type { StreamRecord } from '../events/event-bus.js';
import { writePrivateFile } from '../stores/private-file.js';

/** How long one tool call ran. Kept beside a journal, never in it (contract §3: no wall-clock in entries). */
export interface ToolTiming {
  readonly callId: string;
  readonly durationMs: number;
}

/** The first line of a timing sidecar file. */
const HEADER = { format: 'agent-harness-timing', version: 1 } as const;

/** Where the timing sidecar of a journal lives: `<journal>.timing.jsonl`. */
export function timingPath(journalPath: string): string {
  return `${journalPath}.timing.jsonl`;
}

/**
 * Collects tool durations from an agent's stream (`tool_call_start` → `tool_call_complete`,
 * by the stream's `at`). Results are announced in the model's order, so a call that finished
 * before an earlier concurrent one counts until that one's result was announced. Returns the
 * live list and a function that stops collecting.
 */
export function collectToolTimings(stream$: Observable<StreamRecord>): { timings: ToolTiming[]; stop: () => void } {
  const timings: ToolTiming[] = [];
  const started = new Map<string, number>();
  const subscription = stream$.subscribe(({ at, entry }) => {
    if (entry.type === 'tool_call_start') started.set(entry.data.callId, at);
    if (entry.type !== 'tool_call_complete') return;
    const start = started.get(entry.data.callId);
    if (start === undefined) return;
    started.delete(entry.data.callId);
    timings.push({ callId: entry.data.callId, durationMs: at - start });
  });
  return { timings, stop: () => subscription.unsubscribe() };
}

/** Timings as JSON Lines with a versioned header. */
export function serializeTimings(timings: readonly ToolTiming[]): string {
  const lines = [JSON.stringify(HEADER), ...timings.map((t) => JSON.stringify(t))];
  return `${lines.join('\n')}\n`;
}

function isTiming(value: unknown): value is ToolTiming {
  if (typeof value !== 'object' || value === null) return false;
  const { callId, durationMs } = value as Partial<ToolTiming>;
  return typeof callId === 'string' && typeof durationMs === 'number' && Number.isFinite(durationMs);
}

/** Options of {@link parseTimings} and {@link readTimingFile}. */
export interface ReadTimingsOptions {
  /** Told of each line skipped (and of a sidecar skipped whole); default `process.emitWarning`. */
  readonly onWarning?: (message: string) => void;
}

function emitWarning(message: string): void {
  process.emitWarning(message, { type: 'AgentHarnessWarning' });
}

/**
 * Reads {@link serializeTimings} output. The sidecar is advisory (durations to show, nothing to
 * replay): a line that is not JSON or not `{callId, durationMs}` is skipped with a warning naming
 * it (that call shows no duration), and a file without a version 1 timing header gives no timings,
 * with a warning. It never refuses the journal it sits beside.
 */
export function parseTimings(text: string, name = 'timing file', options: ReadTimingsOptions = {}): ToolTiming[] {
  const warn = options.onWarning ?? emitWarning;
  const lines = text.split('\n');
  const header = parseJson(lines[0] ?? '') as { format?: unknown; version?: unknown } | null | undefined;
  if (header?.format !== HEADER.format || header.version !== HEADER.version) {
    warn(`${name}: line 1 is not a version ${HEADER.version} timing header; tool durations are not shown`);
    return [];
  }
  const timings: ToolTiming[] = [];
  for (const [i, line] of lines.entries()) {
    if (i === 0 || line.trim() === '') continue;
    const value = parseJson(line);
    if (isTiming(value)) timings.push({ callId: value.callId, durationMs: value.durationMs });
    else warn(`${name}: skipped line ${i + 1}: ${value === undefined ? 'not JSON' : 'not {callId, durationMs}'}`);
  }
  return timings;
}

/** The parsed line, or undefined when it is not JSON. */
function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * The timings saved beside a journal: none when there is no sidecar, or (with a warning) when
 * it cannot be read; bad lines are skipped with a warning ({@link parseTimings}).
 */
export async function readTimingFile(journalPath: string, options: ReadTimingsOptions = {}): Promise<ToolTiming[]> {
  const path = timingPath(journalPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    const why = error instanceof Error ? error.message : String(error);
    (options.onWarning ?? emitWarning)(`${path}: cannot be read (${why}); tool durations are not shown`);
    return [];
  }
  return parseTimings(text, path, options);
}

/** Writes the timing sidecar of a journal ({@link timingPath}), atomically and mode 0600 like the journal. */
export async function writeTimingFile(journalPath: string, timings: readonly ToolTiming[]): Promise<void> {
  await writePrivateFile(timingPath(journalPath), serializeTimings(timings));
}
