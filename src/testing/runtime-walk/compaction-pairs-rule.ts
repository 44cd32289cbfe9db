import type { Message } from '../../core/messages.js';
import type { WalkView } from './walk-types.js';

/** What is wrong with the pairing of calls and results in one request's messages, if anything. */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let owed: string[] = [];
  const close = (at: number) => {
    if (owed.length > 0) problems.push(`message ${at} follows calls ${owed.join(', ')} that have no result`);
  };
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      const index = owed.indexOf(message.callId);
      if (index < 0) problems.push(`message ${i} is a result of ${message.callId} without its call before it`);
      else owed.splice(index, 1);
      return;
    }
    close(i);
    owed = message.role === 'assistant' ? (message.toolCalls?.map((call) => call.callId) ?? []) : [];
  });
  close(messages.length);
  return problems;
}

/**
 * Compaction keeps pairs: no request (the agent's, or the harness's own summary request) carries a
 * tool call without its result or a result without its call.
 */
export function compactionKeepsPairs(view: WalkView): string[] {
  return view.requests.flatMap((request, n) =>
    pairingProblems(request.messages).map(
      (problem) =>
        `${request.summary ? 'summary request' : 'request'} ${n + 1} (after entry ${request.at - 1}): ${problem}`,
    ),
  );
}
