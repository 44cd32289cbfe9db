import type { JournalEntry } from '../core/journal-entry.js';

/** What is wrong with a journal's tool calls and results, and where. */
export interface PairingProblem {
  /** Index of the offending entry in the journal. */
  readonly index: number;
  /** One line naming the entry and the call. */
  readonly message: string;
}

function owedText(owed: ReadonlySet<string>): string {
  const ids = [...owed].map((id) => `'${id}'`);
  return ids.length === 1
    ? `call ${ids[0]} of the last assistant turn has no tool_result`
    : `calls ${ids.join(', ')} of the last assistant turn have no tool_result`;
}

/**
 * Checks that every tool call of a journal is answered exactly once before the next model
 * request (SPEC §5), so that a journal with a deleted or altered `tool_result` line is refused
 * instead of sending a request with an unanswered call. Finds the first of:
 * - a `tool_result` whose callId no assistant turn asked for;
 * - a second `tool_result` for one callId;
 * - a `turn_start` or a `user_message` while calls of the last assistant turn are unanswered.
 *
 * A journal may end owing results (an interrupted run); the next run answers them first: when
 * resumed, by running them; with a new message, by error results appended before it. A `reset`
 * starts over. Pure: reads the entries, returns the first problem or `undefined`.
 */
export function checkToolPairing(entries: readonly JournalEntry[]): PairingProblem | undefined {
  let asked = new Set<string>();
  let answered = new Set<string>();
  let owed = new Set<string>();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    if (entry === undefined) continue;
    const problem = (what: string): PairingProblem => ({ index, message: `journal entry ${index}: ${what}` });
    switch (entry.type) {
      case 'assistant_message':
        // Results answer the calls of the last assistant turn (a model may reuse ids across turns).
        owed = new Set((entry.toolCalls ?? []).map((call) => call.callId));
        asked = new Set(owed);
        answered = new Set();
        break;
      case 'tool_result':
        if (!asked.has(entry.callId)) {
          return problem(`a tool_result for call '${entry.callId}', which the last assistant turn did not ask for`);
        }
        if (answered.has(entry.callId)) return problem(`a second tool_result for call '${entry.callId}'`);
        answered.add(entry.callId);
        owed.delete(entry.callId);
        break;
      case 'turn_start':
      case 'user_message':
        if (owed.size > 0) {
          const request = entry.type === 'turn_start' ? 'a new model request (turn_start)' : 'a user_message';
          return problem(`${request} while ${owedText(owed)}`);
        }
        break;
      case 'reset':
        asked = new Set();
        answered = new Set();
        owed = new Set();
        break;
      default:
        break;
    }
  }
  return undefined;
}
