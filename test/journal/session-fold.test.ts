/**
 * What a replayed session knows, entry by entry: the fold over the journal that `Session.replay`
 * and every live session share (`session-state.ts`), on journals a run writes.
 */
import { describe, expect, it } from 'vitest';
import { Config, type JournalEntry, Session } from '../../src/index.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const call = (callId: string) => ({ callId, name: 'echo', arguments: {} });
/** A turn that asked for c1 and c2. */
const asked: JournalEntry[] = [
  { type: 'user_message', content: 'go' },
  { type: 'turn_start' },
  { type: 'usage', usage },
  { type: 'assistant_message', content: '', toolCalls: [call('c1'), call('c2')] },
];
const result = (callId: string): JournalEntry => ({ type: 'tool_result', callId, content: `out ${callId}` });
const replay = (journal: readonly JournalEntry[]) => Session.replay(journal, new Config());
const toolMessages = (session: Session) =>
  session.messages.flatMap((m) => (m.role === 'tool' ? [`${m.callId}: ${m.content}`] : []));

describe('the session fold', () => {
  it('puts results that settled out of order into the context in call order', () => {
    const session = replay([...asked, result('c2'), result('c1')]);
    expect(toolMessages(session)).toEqual(['c1: out c1', 'c2: out c2']);
    const more = replay([...asked, result('c2'), result('c1'), { type: 'user_message', content: 'next' }]);
    expect(more.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
  });

  it("gives a user's message no author, and a harness note its author", () => {
    const session = replay([
      { type: 'user_message', content: 'go' },
      { type: 'user_message', content: 'Answer now.', author: 'harness' },
    ]);
    expect(session.messages.map((m) => Object.keys(m))).toEqual([
      ['role', 'content'],
      ['role', 'content', 'author'],
    ]);
  });

  it("remembers the open turn's approval decisions and starts, a denial's reason defaulting to 'denied', until the context moves on", () => {
    const decided: JournalEntry[] = [
      ...asked,
      { type: 'tool_started', callId: 'c1' },
      { type: 'approval_decision', callId: 'c1', approved: true },
      { type: 'approval_decision', callId: 'c2', approved: false },
    ];
    const session = replay(decided);
    expect(session.approvalDecision('c1')).toEqual({ approved: true });
    expect(session.approvalDecision('c2')).toEqual({ approved: false, reason: 'denied' });
    expect(session.toolCallStarted('c1')).toBe(true);
    expect(session.toolCallStarted('c2')).toBe(false);
    const given = replay([
      ...asked,
      { type: 'approval_decision', callId: 'c2', approved: false, reason: 'not on Fridays' },
    ]);
    expect(given.approvalDecision('c2')).toEqual({ approved: false, reason: 'not on Fridays' });
    const movedOn = replay([...decided, result('c1'), result('c2'), { type: 'user_message', content: 'next' }]);
    expect(movedOn.approvalDecision('c1')).toBeUndefined();
    expect(movedOn.toolCallStarted('c1')).toBe(false);
  });

  it('adds results held for a call that never got one to the context, in call order, when the run ends', () => {
    const three: JournalEntry[] = [
      ...asked.slice(0, 3),
      { type: 'assistant_message', content: '', toolCalls: [call('c1'), call('c2'), call('c3')] },
    ];
    const session = replay([...three, result('c3'), result('c2'), { type: 'agent_end', response: 'done' }]);
    expect(toolMessages(session)).toEqual(['c2: out c2', 'c3: out c3']);
    const none = replay([...three, { type: 'agent_end', response: 'done' }]);
    expect(toolMessages(none)).toEqual([]);
  });

  it('releases a held result only once every earlier call has its result', () => {
    const three: JournalEntry[] = [
      ...asked.slice(0, 3),
      { type: 'assistant_message', content: '', toolCalls: [call('c1'), call('c2'), call('c3')] },
    ];
    expect(toolMessages(replay([...three, result('c3'), result('c1')]))).toEqual(['c1: out c1']);
    expect(toolMessages(replay([...three, result('c3'), result('c1'), result('c2')]))).toEqual([
      'c1: out c1',
      'c2: out c2',
      'c3: out c3',
    ]);
  });

  it('keeps an assistant message without calls as its text only, and a note as a user message by the harness', () => {
    const session = replay([
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: 'not json' },
      { type: 'user_message', content: 'Answer in JSON.', author: 'harness' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: '{}', toolCalls: [] },
    ]);
    expect(session.messages).toStrictEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'not json' },
      { role: 'user', content: 'Answer in JSON.', author: 'harness' },
      { role: 'assistant', content: '{}' },
    ]);
  });

  it("counts a child agent's usage journaled with its result", () => {
    const child = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const session = replay([...asked, { ...result('c1'), usage: child } as JournalEntry, result('c2')]);
    expect(session.totalUsage).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17 });
  });
});
