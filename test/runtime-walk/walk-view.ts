// A hand-made path for the walk's rules as units: a journal and what the agent saw, nothing run.
import { Config, type ConfigOptions } from '../../src/config/config.js';
import type { JournalEntry } from '../../src/core/journal-entry.js';
import type { Message } from '../../src/core/messages.js';
import type { ScriptedToolSpec, ToolExecution, WalkRequest, WalkView } from '../../src/testing/index.js';

/** A view with `parts` over empty defaults (a main agent with tool `look`). */
export function view(parts: Partial<Omit<WalkView, 'config'>> & { config?: ConfigOptions } = {}): WalkView {
  const { config, ...rest } = parts;
  return {
    scenario: { name: 'unit', script: [] },
    config: new Config(config ?? {}),
    journal: [],
    runStarts: [0],
    resumedAt: undefined,
    requests: [],
    executions: [],
    children: new Map(),
    tools: new Map<string, ScriptedToolSpec>([['look', { name: 'look' }]]),
    agents: new Map([['main', { instructions: undefined, tools: ['look'] }]]),
    ...rest,
  };
}

/** An assistant message asking for `calls` (ids) of tool `name`. */
export function asks(ids: readonly string[], name = 'look'): JournalEntry {
  return { type: 'assistant_message', content: '', toolCalls: ids.map((callId) => ({ callId, name, arguments: {} })) };
}

export const started = (callId: string): JournalEntry => ({ type: 'tool_started', callId });
export const result = (callId: string, content = 'ok'): JournalEntry => ({ type: 'tool_result', callId, content });
export const used = (tokens: number): JournalEntry => ({
  type: 'usage',
  usage: { promptTokens: 0, completionTokens: tokens, totalTokens: tokens },
});
export const turn: JournalEntry = { type: 'turn_start' };
export const user = (content = 'go'): JournalEntry => ({ type: 'user_message', content });
export const stop = (reason: string): JournalEntry =>
  ({ type: 'agent_error', reason, message: 'stopped' }) as JournalEntry;

/** Executions: `start:id` / `end:id` of tool `look` unless `name:` is given (`start:id:name`). */
export function ran(...steps: string[]): ToolExecution[] {
  return steps.map((step) => {
    const [phase, callId, name, owner] = step.split(':');
    return { owner: owner ?? 'main', callId: callId ?? '', name: name ?? 'look', phase: phase as 'start' | 'end' };
  });
}

/** A request at journal length `at`, with `messages` and tools offered. */
export function request(at: number, messages: Message[], tools: string[] = ['look'], summary = false): WalkRequest {
  return { at, messages, tools, summary };
}

export const call = (callId: string, name = 'look'): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ callId, name, arguments: {} }],
});
export const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((callId) => ({ callId, name: 'look', arguments: {} })),
});
export const answer = (callId: string): Message => ({ role: 'tool', callId, content: 'ok' });
export const said = (content: string): Message => ({ role: 'user', content });
