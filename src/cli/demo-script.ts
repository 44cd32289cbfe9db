import type { ScriptedTurn } from '../adapters/scripted-client.js';
import { contentText } from '../core/content-parts.js';
import type { ModelClient } from '../core/model-client.js';
import { StreamEvent } from '../core/stream-event.js';
import { tokenUsage } from '../core/usage.js';

/** Files the demo writes into its temporary workspace. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'app.py': 'def add(a, b):\n    return a + b\n',
  'notes.md': '# Notes\n\nadd() is used by the billing job.\n',
};

/** The demo's task. */
export const DEMO_TASK = 'Inspect app.py and notes.md and say what the code is for.';

function chunks(text: string): StreamEvent[] {
  return text.split(/(?<= )/).map((piece) => StreamEvent.textDelta(piece));
}

/** A scripted model: one turn that reads both files (in parallel), then a final answer. */
export function demoScript(): ScriptedTurn[] {
  return [
    [
      ...chunks('I will read both files. '),
      StreamEvent.toolCallComplete({ callId: 'call-1', name: 'read_file', arguments: { path: 'app.py' } }),
      StreamEvent.toolCallComplete({ callId: 'call-2', name: 'read_file', arguments: { path: 'notes.md' } }),
      StreamEvent.messageComplete(tokenUsage(42, 31), 'tool_calls'),
    ],
    (messages) => {
      const sawCode = messages.some((m) => m.role === 'tool' && contentText(m.content).includes('return a + b'));
      const answer = sawCode
        ? 'app.py defines add(a, b), which returns a + b; notes.md says the billing job uses it.'
        : 'I could not read app.py.';
      return [...chunks(answer), StreamEvent.messageComplete(tokenUsage(118, 24), 'stop')];
    },
  ];
}

/**
 * The demo's model for `worker --demo`: the same script, but each request is answered by the
 * turn its conversation has reached (the number of assistant messages in it), not by how many
 * requests this process saw, so any worker answers any execution of a run alike.
 */
export function demoClient(): ModelClient {
  const turns = demoScript();
  return {
    model: 'demo-script',
    async *chatCompletion(messages, tools = []) {
      const turn = turns[Math.min(messages.filter((message) => message.role === 'assistant').length, turns.length - 1)];
      const events = typeof turn === 'function' ? await turn(messages, tools) : (turn ?? []);
      yield* events;
    },
  };
}
