import { describe, expect, it } from 'vitest';
import { Config, HarnessError, Session, stableJson } from '../../src/index.js';
import { JOURNAL_VERSION } from '../../src/journal.js';

const config = new Config({ systemPrompt: 'sys' });

function sample(clock = () => Date.parse('2026-01-02T03:04:05Z')) {
  const session = new Session(config, { clock });
  session.addUserMessage('hi');
  session.startTurn();
  session.addAssistantMessage('calling', [{ callId: 'c1', name: 't', arguments: { a: 1 } }]);
  session.addToolResult({ callId: 'c1', content: 'result' });
  session.trackUsage({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
  session.recordTransition('executingTools', 'observing', 'TOOL_SETTLED');
  session.recordEnd('bye');
  return session;
}

describe('Session', () => {
  it('gives every onAppend listener each entry even when an earlier listener throws, then throws its error', () => {
    const session = new Session(config);
    const seen: string[] = [];
    session.onAppend(() => {
      throw new Error('disk full');
    });
    session.onAppend((entry, index) => seen.push(`${index}:${entry.type}`));
    expect(() => session.addUserMessage('hi')).toThrow('disk full');
    expect(seen).toEqual(['0:user_message']);
    expect(session.journal).toHaveLength(1);
  });

  it('appends exactly one journal entry per mutator', () => {
    const session = new Session(config);
    const calls: (() => void)[] = [
      () => session.startTurn(),
      () => session.addUserMessage('u'),
      () => session.addAssistantMessage('a'),
      () => session.addToolResult({ callId: 'x', content: 'y' }),
      () => session.trackUsage({ promptTokens: 1, completionTokens: 1, totalTokens: 2 }),
      () => session.reset(),
    ];
    calls.forEach((call, i) => {
      call();
      expect(session.journal).toHaveLength(i + 1);
    });
  });

  it('starts from the system prompt and folds messages, usage and turns from the journal', () => {
    const session = sample();
    expect(session.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'calling', toolCalls: [{ callId: 'c1', name: 't', arguments: { a: 1 } }] },
      { role: 'tool', callId: 'c1', content: 'result' },
    ]);
    expect(session.turnCount).toBe(1);
    expect(session.totalUsage).toEqual({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
  });

  it('reset clears state but keeps history in the journal', () => {
    const session = sample();
    session.reset();
    expect(session.messages).toEqual([{ role: 'system', content: 'sys' }]);
    expect(session.turnCount).toBe(0);
    expect(session.pendingAnswer).toBeUndefined();
    expect(session.journal.at(-1)).toEqual({ type: 'reset' });
  });

  it('keeps messages frozen so tool output cannot be rewritten in place', () => {
    const message = sample().messages[3];
    expect(Object.isFrozen(message)).toBe(true);
  });

  it('hands out frozen snapshots of the journal and messages: nothing changes state behind the journal', () => {
    const session = sample();
    const journal = session.journal;
    const messages = session.messages;
    const entries = journal.length;
    const forged = { type: 'user_message', content: 'forged' } as const;
    expect(() => (journal as unknown[]).push(forged)).toThrow(TypeError);
    expect(() => (messages as unknown[]).push({ role: 'system', content: 'forged' })).toThrow(TypeError);
    expect(() => Object.assign(journal[1] as object, { content: 'rewritten' })).toThrow(TypeError);
    expect(session.journal).toHaveLength(entries);
    expect(stableJson(Session.replay(session.journal, config).messages)).toBe(stableJson(session.messages));

    session.addUserMessage('later');
    expect(journal).toHaveLength(entries); // the snapshot read before stays as it was
    expect(session.journal).toHaveLength(entries + 1);
    expect(session.messages.at(-1)).toEqual({ role: 'user', content: 'later' });
    expect(session.journal).toBe(session.journal); // no copy per read while nothing changes
    expect(session.journalFrom(entries)).toEqual([{ type: 'user_message', content: 'later' }]);
    expect(() => session.journalFrom(-1)).toThrow(/journalFrom\(start\) needs an index >= 0, got -1/);
  });

  it('snapshots with savedAt outside the journal and restores an equal session', () => {
    const session = sample();
    const snapshot = JSON.parse(JSON.stringify(session));
    expect(snapshot.savedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(snapshot.version).toBe(JOURNAL_VERSION);
    const restored = Session.fromJSON(snapshot, config);
    expect(stableJson(restored.journal)).toBe(stableJson(session.journal));
    expect(restored.messages).toEqual(session.messages);
    const later = Session.fromJSON(JSON.parse(JSON.stringify(sample(() => 0))), config);
    expect(stableJson(later.journal)).toBe(stableJson(restored.journal));
  });

  it('keeps a snapshot as it was when taken, whatever the session records after', () => {
    const session = sample();
    const snapshot = session.toJSON();
    const entries = snapshot.journal.length;
    session.addUserMessage('later');
    expect(snapshot.journal).toHaveLength(entries);
    expect(Session.fromJSON(snapshot, config).messages).not.toContainEqual({ role: 'user', content: 'later' });
  });

  it('refuses an unknown snapshot version with a clear error', () => {
    const snapshot = { ...sample().toJSON(), version: 99 };
    expect(() => Session.fromJSON(snapshot, config)).toThrowError(/journal version 99 is not supported/);
    try {
      Session.fromJSON(snapshot, config);
    } catch (error) {
      expect(HarnessError.isInstance(error) && error.reason).toBe('unsupported_journal_version');
    }
  });

  it('refuses a malformed journal entry, naming it', () => {
    expect(() =>
      Session.replay([{ type: 'turn_start' }, { type: 'usage', usage: { promptTokens: -1 } }], config),
    ).toThrowError(/journal entry 1: 'usage.promptTokens' must be a non-negative integer/);
    expect(() => Session.replay([{ type: 'teleport' }], config)).toThrowError(/unknown entry type "teleport"/);
  });

  it('rejects bad input to mutators with invalid_argument', () => {
    const session = new Session(config);
    expect(() => session.trackUsage({ promptTokens: 1.5, completionTokens: 0, totalTokens: 1 })).toThrowError(
      /usage.promptTokens/,
    );
    expect(() => session.addAssistantMessage('x', [{ callId: '', name: 't', arguments: {} }])).toThrowError(/callId/);
    expect(session.journal).toHaveLength(0);
  });
});

describe('Session input forms', () => {
  it('takes tool calls as an array or as {toolCalls}, and tool results as an object or (callId, content)', () => {
    const a = new Session(config);
    a.addAssistantMessage('x', [{ id: 'c1', name: 't', arguments: {} }]);
    a.addToolResult({ callId: 'c1', content: 'r' });
    const b = new Session(config);
    b.addAssistantMessage('x', { toolCalls: [{ callId: 'c1', name: 't', arguments: {} }] });
    b.addToolResult('c1', 'r');
    expect(b.journal).toEqual(a.journal);
  });

  it('refuses tool calls that are not objects with invalid_argument', () => {
    expect(() => new Session(config).addAssistantMessage('x', ['nope' as never])).toThrowError(HarnessError);
  });
});
