/**
 * The session fold's compactions and handoffs (`session-state.ts`), on hand-written journals
 * replayed with `Session.replay`: what a replayed context holds, and the exact refusal a
 * compaction that would break the context gets.
 */
import { describe, expect, it } from 'vitest';
import { Config, type JournalEntry, Session } from '../../src/index.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const asks = (callId: string): JournalEntry[] => [
  { type: 'turn_start' },
  { type: 'usage', usage },
  { type: 'assistant_message', content: '', toolCalls: [{ callId, name: 'read', arguments: {} }] },
  { type: 'tool_result', callId, content: `page ${callId}` },
];
/** Its context: [user, assistant(p1), tool(p1), assistant(p2), tool(p2), assistant 'done', user]. */
const journal: JournalEntry[] = [
  { type: 'user_message', content: 'Read it.' },
  ...asks('p1'),
  ...asks('p2'),
  { type: 'turn_start' },
  { type: 'usage', usage },
  { type: 'agent_end', response: 'done' },
  { type: 'user_message', content: 'And now?' },
];
const elided = { role: 'tool' as const, callId: 'p1', content: '[elided]' };
const summary = { role: 'assistant' as const, content: '[summary]' };

function compacted(fields: { strategy?: 'elide' | 'summarise'; from: number; to: number; messages: unknown[] }) {
  const entry = { type: 'compaction', strategy: 'elide', tokensBefore: 100, tokensAfter: 50, ...fields };
  return Session.replay([...journal, entry]);
}

function refusal(fields: Parameters<typeof compacted>[0]): string {
  try {
    compacted(fields);
  } catch (error) {
    expect(error).toMatchObject({ reason: 'journal_corrupt' });
    return (error as Error).message;
  }
  throw new Error('the compaction was accepted');
}

const roles = (session: Session) => session.messages.map((m) => m.role);

describe('a compaction in the session fold', () => {
  it('elides a tool output in place', () => {
    const session = compacted({ from: 2, to: 3, messages: [elided] });
    expect(session.messages).toHaveLength(7);
    expect(session.messages[2]).toEqual(elided);
    expect(session.messages[4]).toEqual({ role: 'tool', callId: 'p2', content: 'page p2' });
  });

  it('replaces whole turns with a summary, up to the newest turn', () => {
    const session = compacted({ strategy: 'summarise', from: 1, to: 5, messages: [summary] });
    expect(session.messages).toEqual([
      { role: 'user', content: 'Read it.' },
      summary,
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'And now?' },
    ]);
    expect(Object.isFrozen(session.messages[1])).toBe(true);
  });

  it.each<[string, Parameters<typeof compacted>[0], string]>([
    ['past the context', { from: 2, to: 8, messages: [] }, 'the context holds 7'],
    [
      'into the newest turn',
      { strategy: 'summarise', from: 1, to: 7, messages: [summary] },
      'the newest turn is never compacted',
    ],
    [
      'over the newest answer',
      { strategy: 'summarise', from: 3, to: 6, messages: [summary] },
      'the newest turn is never compacted',
    ],
    ['dropping a message', { from: 1, to: 3, messages: [elided] }, 'an elision keeps its 2 messages'],
    ['adding a message', { from: 2, to: 3, messages: [elided, elided] }, 'an elision keeps its 1 messages'],
    [
      'moving a result',
      { from: 2, to: 3, messages: [{ ...elided, callId: 'p2' }] },
      'message 2 may only have its tool output elided',
    ],
    [
      'editing a user message',
      { from: 0, to: 3, messages: [{ role: 'user', content: 'obey' }, { role: 'assistant', content: '' }, elided] },
      'message 0 may only have its tool output elided',
    ],
    [
      'turning a result into a user message',
      {
        from: 1,
        to: 3,
        messages: [
          { role: 'assistant', content: '', toolCalls: [{ callId: 'p1', name: 'read', arguments: {} }] },
          { role: 'user', content: 'page p1' },
        ],
      },
      'message 2 may only have its tool output elided',
    ],
    [
      'with no summary',
      { strategy: 'summarise', from: 1, to: 5, messages: [] },
      'a summary is one assistant message without tool calls',
    ],
    [
      'with two summaries',
      { strategy: 'summarise', from: 1, to: 5, messages: [summary, summary] },
      'a summary is one assistant message without tool calls',
    ],
    [
      'with a user summary',
      { strategy: 'summarise', from: 1, to: 5, messages: [{ role: 'user', content: 's' }] },
      'a summary is one assistant message without tool calls',
    ],
    [
      'with a summary that calls a tool',
      {
        strategy: 'summarise',
        from: 1,
        to: 5,
        messages: [{ ...summary, toolCalls: [{ callId: 'q', name: 'read', arguments: {} }] }],
      },
      'a summary is one assistant message without tool calls',
    ],
    [
      'from a tool result',
      { strategy: 'summarise', from: 2, to: 5, messages: [summary] },
      'a summary replaces whole turns, never a call without its result',
    ],
    [
      'up to a tool result',
      { strategy: 'summarise', from: 1, to: 4, messages: [summary] },
      'a summary replaces whole turns, never a call without its result',
    ],
  ])('refuses one %s, saying why', (_, fields, why) => {
    expect(refusal(fields)).toBe(`a compaction replaces messages ${fields.from} to ${fields.to}, but ${why}`);
  });

  it('keeps an elision that leaves a message as it was', () => {
    const same = compacted({
      from: 0,
      to: 3,
      messages: [
        { role: 'user', content: 'Read it.' },
        { role: 'assistant', content: '', toolCalls: [{ callId: 'p1', name: 'read', arguments: {} }] },
        elided,
      ],
    });
    expect(roles(same)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('refuses a user message in place of a result, even one that names its call', () => {
    const user = { role: 'user', content: 'obey', callId: 'p1' };
    expect(refusal({ from: 2, to: 3, messages: [user] })).toBe(
      'a compaction replaces messages 2 to 3, but message 2 may only have its tool output elided',
    );
    const result = { role: 'tool', callId: 'p1', content: 'x' };
    const asUser = { role: 'user', content: 'Read it.' };
    expect(refusal({ from: 0, to: 3, messages: [result, ...[asUser, asUser]] })).toBe(
      'a compaction replaces messages 0 to 3, but message 0 may only have its tool output elided',
    );
  });

  it('refuses any compaction of a context without an assistant message', () => {
    const entry = {
      type: 'compaction',
      strategy: 'summarise',
      from: 0,
      to: 1,
      messages: [summary],
      tokensBefore: 9,
      tokensAfter: 1,
    };
    const only = [
      { type: 'user_message', content: 'a' },
      { type: 'user_message', content: 'b' },
    ];
    expect(() => Session.replay([...only, entry])).toThrow(
      'a compaction replaces messages 0 to 1, but the newest turn is never compacted',
    );
    const empty = { ...entry, strategy: 'elide', to: 0, messages: [] };
    expect(() => Session.replay([...only, empty])).toThrow(
      'a compaction replaces messages 0 to 0, but the newest turn is never compacted',
    );
  });
});

describe('a handoff in the session fold', () => {
  const handoff = { type: 'handoff', from: 'main', to: 'billing', instructions: 'You handle billing.' } as const;

  it("replaces the system prompt with the new agent's instructions", () => {
    const session = Session.replay(
      [{ type: 'user_message', content: 'hi' }, handoff],
      new Config({ systemPrompt: 'You triage.' }),
    );
    expect(session.activeAgent).toBe('billing');
    expect(session.messages).toEqual([
      { role: 'system', content: 'You handle billing.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('puts the instructions first in a context without a system prompt', () => {
    const session = Session.replay([{ type: 'user_message', content: 'hi' }, handoff]);
    expect(session.messages).toEqual([
      { role: 'system', content: 'You handle billing.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(Session.replay([handoff]).messages).toEqual([{ role: 'system', content: 'You handle billing.' }]);
  });

  it("is undone by a reset: the session's own agent and prompt again", () => {
    const session = Session.replay([handoff, { type: 'reset' }], new Config({ systemPrompt: 'You triage.' }));
    expect(session.activeAgent).toBeUndefined();
    expect(session.messages).toEqual([{ role: 'system', content: 'You triage.' }]);
  });
});
