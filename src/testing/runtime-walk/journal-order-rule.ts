import type { JournalEntry } from '../../core/journal-entry.js';
import type { Message } from '../../core/messages.js';
import { Session } from '../../session/session.js';
import type { WalkView } from './walk-types.js';

/** Where each call's first `tool_started` and its `tool_result` are in the journal. */
function positions(journal: readonly JournalEntry[]) {
  const started = new Map<string, number>();
  const answered = new Map<string, number>();
  journal.forEach((entry, i) => {
    if (entry.type === 'tool_started' && !started.has(entry.callId)) started.set(entry.callId, i);
    if (entry.type === 'tool_result') answered.set(entry.callId, i);
  });
  return { started, answered };
}

const NO_CALLS: readonly string[] = [];

/** Tool messages after each assistant message must be in the order of its calls. */
function callOrderProblems(messages: readonly Message[], where: string): string[] {
  const problems: string[] = [];
  let calls: readonly string[] = NO_CALLS;
  let next = 0;
  messages.forEach((message, i) => {
    if (message.role === 'assistant') {
      calls = message.toolCalls?.map((call) => call.callId) ?? NO_CALLS;
      next = 0;
      return;
    }
    if (message.role !== 'tool') return;
    const index = calls.indexOf(message.callId);
    if (index >= 0 && index < next)
      problems.push(`${where}: message ${i}, the result of ${message.callId}, comes after a later call's result`);
    next = Math.max(next, index + 1);
  });
  return problems;
}

/**
 * Journal order: every result follows its call's `tool_started`; results are journaled as the
 * tools finish (the order the scripted tools ended in); and the fold (`Session.replay`'s
 * messages, and so every request) gives them in the model's order of the calls.
 */
export function journalOrder(view: WalkView): string[] {
  const { journal } = view;
  const { started, answered } = positions(journal);
  const problems: string[] = [];
  for (const [callId, result] of answered) {
    const start = started.get(callId);
    if (start !== undefined && start > result)
      problems.push(`the result of ${callId} (entry ${result}) comes before its tool_started (entry ${start})`);
  }
  const from = view.resumedAt ?? 0;
  // The main agent's calls in the order they finished, those journaled since the crash.
  const finished = view.executions
    .filter((run) => run.owner === 'main' && run.phase === 'end')
    .map((run) => run.callId)
    .filter((callId) => (answered.get(callId) ?? -1) >= from);
  for (let i = 1; i < finished.length; i++) {
    const [first, next] = [finished[i - 1] as string, finished[i] as string];
    const [before, after] = [answered.get(first) as number, answered.get(next) as number];
    if (before > after)
      problems.push(
        `${next} finished after ${first} but its result was journaled first (entry ${after} before ${before})`,
      );
  }
  try {
    problems.push(...callOrderProblems(Session.replay(journal, view.config).messages, 'the fold'));
  } catch {
    // An unreadable journal is the `replay` invariant's to report.
  }
  view.requests.forEach((request, n) => {
    problems.push(...callOrderProblems(request.messages, `request ${n + 1}`));
  });
  return problems;
}
