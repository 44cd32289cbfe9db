import { readFile } from 'node:fs/promises';
import type { Observable } from 'rxjs';
import { writePrivateFile } from '../adapters/private-file.js';
import { HarnessError } from '../core/errors.js';
import type { StreamRecord } from '../events/event-bus.js';

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

/** Reads {@link serializeTimings} output; `invalid_journal` names the bad line. */
export function parseTimings(text: string, name = 'timing file'): ToolTiming[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.flatMap((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new HarnessError('invalid_journal', `${name}: line ${i + 1} is not JSON`);
    }
    if (i === 0) {
      const header = value as { format?: unknown; version?: unknown } | null;
      if (header?.format !== HEADER.format || header.version !== HEADER.version) {
        throw new HarnessError('invalid_journal', `${name}: line 1 is not a version ${HEADER.version} timing header`);
      }
      return [];
    }
    if (!isTiming(value))
      throw new HarnessError('invalid_journal', `${name}: line ${i + 1} is not {callId, durationMs}`);
    return [{ callId: value.callId, durationMs: value.durationMs }];
  });
}

/** The timings saved beside a journal, or none when there is no sidecar. */
export async function readTimingFile(journalPath: string): Promise<ToolTiming[]> {
  const path = timingPath(journalPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
  return parseTimings(text, path);
}

/** Writes the timing sidecar of a journal ({@link timingPath}), atomically and mode 0600 like the journal. */
export async function writeTimingFile(journalPath: string, timings: readonly ToolTiming[]): Promise<void> {
  await writePrivateFile(timingPath(journalPath), serializeTimings(timings));
}
