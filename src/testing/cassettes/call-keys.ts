import type { JournalEntry } from '../../core/journal-entry.js';

/**
 * A tool call's key in a journal: its id and which of the assistant messages that asked for a
 * call of that id it belongs to (`2:call_1`). A model may reuse an id in a later turn (a scripted
 * model, some local servers); the id alone would match the later call with the earlier's result.
 */
export const callKey = (occurrence: number, callId: string): string => `${occurrence}:${callId}`;

/**
 * Keys of the calls of one journal as it grows: an entry that names a call (its result, start,
 * approval, guardrail verdict) belongs to the latest assistant message asking for that id.
 * Reads each entry once, however often it is asked.
 */
export class CallKeys {
  private readonly seen = new Map<string, number>();
  private read = 0;

  /** The key of call `callId` as of the end of `journal` (the same journal each time, grown). */
  of(journal: readonly JournalEntry[], callId: string): string {
    this.advance(journal, journal.length);
    return callKey(this.seen.get(callId) ?? 0, callId);
  }

  /** Reads `journal` up to (not including) `end`, counting each assistant message's call ids. */
  advance(journal: readonly JournalEntry[], end: number): void {
    for (; this.read < end; this.read++) {
      const entry = journal[this.read] as JournalEntry;
      if (entry.type !== 'assistant_message') continue;
      for (const call of entry.toolCalls ?? []) this.seen.set(call.callId, (this.seen.get(call.callId) ?? 0) + 1);
    }
  }

  /** The key of the call `callId` named by entry `index` of `journal` (read in order). */
  at(journal: readonly JournalEntry[], index: number, callId: string): string {
    this.advance(journal, index + 1);
    return callKey(this.seen.get(callId) ?? 0, callId);
  }
}
