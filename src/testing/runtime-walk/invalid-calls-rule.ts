import { contentText } from '../../core/content-parts.js';
import type { JournalEntry } from '../../core/journal-entry.js';
import type { ToolCall } from '../../core/messages.js';
import type { WalkView } from './walk-types.js';

const NO_CALLS: readonly ToolCall[] = [];

const isInvalid = (content: string): boolean =>
  content.startsWith('Error: Invalid parameters') || content.startsWith('Error: Unknown tool ');

/** The first tool with `max` invalid calls or more in a row, if any. */
function over(counts: ReadonlyMap<string, number>, max: number): string | undefined {
  for (const [name, count] of counts) if (count >= max) return name;
  return undefined;
}

/**
 * Invalid calls at their boundary: once one tool has `maxInvalidToolCalls` invalid calls in a
 * row (in the model's order of the calls, a success of that tool clearing its count; counted
 * from the user's message, on across resumes), the model is not asked again, in the run or in
 * its resume after a crash, and a run stops with `invalid_tool_calls` only then. A run that
 * ended is over: a `resume()` after it may ask the model once more, and goes on counting.
 */
export function invalidCallsBoundary(view: WalkView): string[] {
  const max = view.config.maxInvalidToolCalls;
  const { journal } = view;
  const results = new Map<string, string>();
  for (const entry of journal) if (entry.type === 'tool_result') results.set(entry.callId, contentText(entry.content));
  const problems: string[] = [];
  let counts = new Map<string, number>();
  let afterEnd = false;
  journal.forEach((entry: JournalEntry, i) => {
    if (entry.type === 'user_message' && entry.author === undefined) counts = new Map();
    const tool = over(counts, max);
    if (entry.type === 'turn_start' && tool !== undefined && !afterEnd)
      problems.push(`entry ${i} asks the model again after ${max} invalid calls of '${tool}' in a row`);
    if (entry.type === 'agent_error' && entry.reason === 'invalid_tool_calls' && tool === undefined)
      problems.push(`entry ${i} stops with invalid_tool_calls, but no tool has ${max} invalid calls in a row`);
    if (entry.type === 'agent_end' || entry.type === 'agent_error') afterEnd = true;
    if (entry.type !== 'assistant_message') return;
    afterEnd = false;
    for (const call of entry.toolCalls ?? NO_CALLS) {
      const content = results.get(call.callId);
      if (content === undefined) continue;
      if (isInvalid(content)) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
      else if (!content.startsWith('Error: ')) counts.delete(call.name);
    }
  });
  return problems;
}
