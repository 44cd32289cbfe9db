import type { Message } from '../core/messages.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../core/usage.js';
import type { JournalEntry } from './journal-entry.js';

/** What a session knows, as a fold over its journal. Mutated in place for speed. */
export interface SessionState {
  messages: Message[];
  turnCount: number;
  totalUsage: TokenUsage;
  /** The last final answer, until the next message carries it into `messages`. */
  pendingAnswer: string | undefined;
}

/** The state of a session with an empty journal. */
export function initialState(systemPrompt: string | undefined): SessionState {
  return {
    messages: systemPrompt === undefined ? [] : [Object.freeze({ role: 'system', content: systemPrompt })],
    turnCount: 0,
    totalUsage: ZERO_USAGE,
    pendingAnswer: undefined,
  };
}

function push(state: SessionState, message: Message): void {
  if (state.pendingAnswer !== undefined) {
    state.messages.push(Object.freeze({ role: 'assistant', content: state.pendingAnswer }));
    state.pendingAnswer = undefined;
  }
  state.messages.push(Object.freeze(message));
}

/** Applies one journal entry to the state: the single place where session state changes. */
export function applyEntry(state: SessionState, entry: JournalEntry, systemPrompt: string | undefined): void {
  switch (entry.type) {
    case 'turn_start':
      state.turnCount += 1;
      return;
    case 'user_message':
      push(
        state,
        entry.author
          ? { role: 'user', content: entry.content, author: entry.author }
          : { role: 'user', content: entry.content },
      );
      return;
    case 'assistant_message':
      push(
        state,
        entry.toolCalls && entry.toolCalls.length > 0
          ? { role: 'assistant', content: entry.content, toolCalls: entry.toolCalls }
          : { role: 'assistant', content: entry.content },
      );
      return;
    case 'tool_result':
      push(state, { role: 'tool', callId: entry.callId, content: entry.content });
      return;
    case 'usage':
      state.totalUsage = addUsage(state.totalUsage, entry.usage);
      return;
    case 'reset':
      Object.assign(state, initialState(systemPrompt));
      return;
    case 'agent_end':
      state.pendingAnswer = entry.response;
      return;
    case 'transition':
    case 'agent_error':
    case 'budget_warning':
      return;
  }
}
