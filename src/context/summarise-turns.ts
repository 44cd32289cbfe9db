import { type Compaction, keptFrom } from '../core/compaction.js';
import type { Message } from '../core/messages.js';
import type { CompactionGoal } from './elide-outputs.js';
import { estimateContextTokens, estimateMessageTokens } from './token-estimate.js';

/** The harness's request for a summary, sent after the turns to summarise. */
export const SUMMARY_REQUEST =
  'Context is running out. Summarise the conversation above for your own later use: the task, ' +
  'what you have done, what you found (facts, names, numbers, paths) and what is left to do. ' +
  'Reply with the summary only.';

/** The span of the context a summary replaces: between two of the user's messages (or after the last), before the kept turns. */
export interface SummaryRegion {
  readonly from: number;
  readonly to: number;
}

/** A user's own message (not a harness note): it stays verbatim, a summary never replaces it. */
function isUsersMessage(message: Message): boolean {
  return message.role === 'user' && message.author !== 'harness';
}

/**
 * Which messages a summary would replace: the oldest run of at least two messages between two
 * of the user's messages (or after the last one) and before the kept turns. The user's messages
 * stay verbatim: the first (the task), and each later task of a conversation that goes on over
 * several runs. Undefined when no such run of two messages is left: a summary would not shorten
 * anything.
 */
export function summaryRegion(messages: readonly Message[], keepTurns: number): SummaryRegion | undefined {
  const end = keptFrom(messages, keepTurns);
  let from = -1; // just after the last user's message seen; -1 before the first
  for (let index = 0; index < end; index++) {
    if (!isUsersMessage(messages[index] as Message)) continue;
    if (from >= 0 && index - from >= 2) return { from, to: index };
    from = index + 1;
  }
  return from >= 0 && end - from >= 2 ? { from, to: end } : undefined;
}

/**
 * The harness-authored summary request: the context up to the kept turns, verbatim (tool
 * outputs stay `tool` messages), then {@link SUMMARY_REQUEST} as a harness note. Sent without tools.
 */
export function summaryRequest(messages: readonly Message[], region: SummaryRegion): Message[] {
  return [...messages.slice(0, region.to), { role: 'user', content: SUMMARY_REQUEST, author: 'harness' }];
}

/** The message that stands for the summarised turns: the model's own words, as an assistant message. */
export function summaryMessage(summary: string, count: number): Message {
  return { role: 'assistant', content: `[summary of ${count} earlier messages]\n${summary}` };
}

/** The compaction a summary makes of `region`. */
export function summaryCompaction(
  messages: readonly Message[],
  region: SummaryRegion,
  summary: string,
  goal: Pick<CompactionGoal, 'tokens' | 'tokenScale'>,
): Compaction {
  const by = summaryMessage(summary, region.to - region.from);
  const removed = estimateContextTokens(messages.slice(region.from, region.to));
  const tokensAfter = Math.max(0, Math.ceil(goal.tokens - (removed - estimateMessageTokens(by)) * goal.tokenScale));
  return {
    strategy: 'summarise',
    from: region.from,
    to: region.to,
    messages: [by],
    tokensBefore: goal.tokens,
    tokensAfter,
  };
}
