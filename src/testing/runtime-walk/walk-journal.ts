import type { JournalEntry } from '../../core/journal-entry.js';
import type { WalkView } from './walk-types.js';

/** Each call id of a journal's assistant messages, with its tool's name. */
export function callNames(journal: readonly JournalEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of journal)
    if (entry.type === 'assistant_message') for (const call of entry.toolCalls ?? []) names.set(call.callId, call.name);
  return names;
}

/** The runs of a path: `[start, end)` of each in the journal, in order. */
export function runSpans(view: Pick<WalkView, 'journal' | 'runStarts'>): { start: number; end: number }[] {
  const starts = view.runStarts.length === 0 || view.runStarts[0] !== 0 ? [0, ...view.runStarts] : view.runStarts;
  return starts.map((start, i) => ({ start, end: starts[i + 1] ?? view.journal.length }));
}

/** `entry 7 (tool_result)`: how walk rules name an entry. */
export function entryLabel(journal: readonly JournalEntry[], index: number): string {
  return `entry ${index} (${journal[index]?.type ?? 'missing'})`;
}
