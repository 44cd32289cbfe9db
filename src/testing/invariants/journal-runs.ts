import type { JournalEntry } from '../../core/journal-entry.js';

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

/**
 * True for an entry that starts a new run of the machine: a user's message; a machine start
 * recorded by `resume()` (a move on `xstate.init`); or a model request that does not follow a
 * move into `awaitingModel` (nor start its run), which only a fresh machine makes: a `resume()`
 * with nothing left to run records no other marker. `lastMove` is `request` after a request.
 */
function startsRun(entry: JournalEntry, lastMove: string | undefined): boolean {
  if (entry.type === 'user_message') return entry.author === undefined;
  if (entry.type === 'turn_start') return lastMove !== undefined && lastMove !== 'awaitingModel';
  // A resumed run may move on from executingTools on `xstate.init` too (into awaitingApproval).
  return entry.type === 'transition' && entry.event === 'xstate.init' && entry.from === 'awaitingModel';
}

/** A resumed run journals its approval requests just before its first move: they belong to it. */
function onlyApprovalRequests(journal: readonly JournalEntry[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (journal[i]?.type !== 'approval_request') return false;
  return true;
}

/**
 * Splits a journal into runs: after each end entry, and where a new run starts while one had not
 * ended (an interrupted run, then `run()` or `resume()`). Only the last run is unfinished when
 * the journal stops in the middle of one.
 */
export function splitRuns(journal: readonly JournalEntry[]): JournalRun[] {
  const runs: JournalRun[] = [];
  let start = 0;
  let lastMove: string | undefined;
  const cut = (end: number, ended: boolean): void => {
    if (end > start) runs.push({ offset: start, entries: journal.slice(start, end), ended });
    start = end;
    lastMove = undefined;
  };
  journal.forEach((entry, i) => {
    if (startsRun(entry, lastMove) && i > start && !onlyApprovalRequests(journal, start, i)) cut(i, false);
    if (entry.type === 'transition') lastMove = entry.to;
    if (entry.type === 'turn_start') lastMove = 'request';
    if (isEndEntry(entry)) cut(i + 1, true);
  });
  cut(journal.length, false);
  return runs;
}

/** `entry 12 (tool_result)`: how messages name an entry. */
export function entryName(run: JournalRun, index: number): string {
  return `entry ${run.offset + index} (${run.entries[index]?.type ?? 'missing'})`;
}
