import type { JournalEntry } from '../../session/journal-entry.js';

/** One run's slice of a journal: from its user message (or first entry) to its end entry. */
export interface JournalRun {
  /** Index of the run's first entry in the whole journal. */
  readonly offset: number;
  readonly entries: readonly JournalEntry[];
  /** True when the run ended (its last entry is `agent_end` or `agent_error`). */
  readonly ended: boolean;
}

/** True for `agent_end` and `agent_error` entries. */
export function isEndEntry(entry: JournalEntry): boolean {
  return entry.type === 'agent_end' || entry.type === 'agent_error';
}

/** Splits a journal after each end entry. A trailing slice without an end is an unfinished run. */
export function splitRuns(journal: readonly JournalEntry[]): JournalRun[] {
  const runs: JournalRun[] = [];
  let start = 0;
  journal.forEach((entry, i) => {
    if (!isEndEntry(entry)) return;
    runs.push({ offset: start, entries: journal.slice(start, i + 1), ended: true });
    start = i + 1;
  });
  if (start < journal.length) runs.push({ offset: start, entries: journal.slice(start), ended: false });
  return runs;
}

/** `entry 12 (tool_result)`: how messages name an entry. */
export function entryName(run: JournalRun, index: number): string {
  return `entry ${run.offset + index} (${run.entries[index]?.type ?? 'missing'})`;
}
