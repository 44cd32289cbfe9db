import type { MessageContent } from '../core/content-parts.js';
import { contentText } from '../core/content-parts.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { countCall, type InvalidCalls, invalidCallErrorOfContent } from '../machines/invalid-calls.js';

/**
 * The invalid calls an interrupted run had counted, from its journal: the results since the
 * run's user message, taken in call order (as the machine counts them), so a resumed run goes on
 * with the count it stopped at.
 */
export function invalidCallsSoFar(journal: readonly JournalEntry[]): InvalidCalls {
  let start = journal.length;
  while (start > 0) {
    const entry = journal[start - 1] as JournalEntry;
    if (entry.type === 'reset' || (entry.type === 'user_message' && entry.author !== 'harness')) break;
    start--;
  }
  const results = new Map<string, MessageContent>();
  for (let index = start; index < journal.length; index++) {
    const entry = journal[index] as JournalEntry;
    if (entry.type === 'tool_result') results.set(entry.callId, entry.content);
  }
  let counts: InvalidCalls = {};
  for (let index = start; index < journal.length; index++) {
    const entry = journal[index] as JournalEntry;
    if (entry.type !== 'assistant_message') continue;
    for (const call of entry.toolCalls ?? []) {
      const result = results.get(call.callId);
      if (result === undefined) continue;
      const content = contentText(result);
      counts = countCall(counts, call.name, invalidCallErrorOfContent(content), !content.startsWith('Error: '));
    }
  }
  return counts;
}
