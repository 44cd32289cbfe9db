import { describe, expect, it } from 'vitest';
import {
  Agent,
  Config,
  HarnessError,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolRegistry,
} from '../../src/index.js';
import { parseJournal, readJournalFile, serializeJournal, writeJournalFile } from '../../src/journal.js';
import { drain, use, workspace } from '../support/runs.js';

function seedSession() {
  const config = new Config({ cwd: workspace(), maxTurns: 3 });
  const registry = new ToolRegistry(config);
  const session = new Session(config, { registry });
  session.startTurn();
  session.addUserMessage('inspect the project');
  session.addAssistantMessage('I will inspect it', [{ id: 'call-1', name: 'list_dir', arguments: { path: '.' } }]);
  session.addToolResult({ callId: 'call-1', content: 'app.py' });
  session.trackUsage({ promptTokens: 10, completionTokens: 4, totalTokens: 14 });
  return { config, registry, session };
}

describe('contract §3 Session journal (seed cell "Event journal")', () => {
  it('each mutator appends exactly one entry, and replay rebuilds an equal session byte-identically', () => {
    const { config, registry, session } = seedSession();
    const journal = structuredClone(session.journal);
    expect(journal).toHaveLength(5);
    const replayed = Session.replay(journal, config, { registry });
    expect(replayed.messages).toEqual(session.messages);
    expect(replayed.turnCount).toBe(1);
    expect(replayed.totalUsage).toEqual({ promptTokens: 10, completionTokens: 4, totalTokens: 14 });
    expect(replayed.journal).toEqual(journal);
    expect(stableJson(replayed.journal)).toBe(stableJson(journal));
    expect(JSON.stringify(replayed.journal)).toBe(JSON.stringify(journal));
  });

  it('messages are OpenAI-shaped: the assistant carries its calls, the tool message its callId', () => {
    const { session } = seedSession();
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    const assistant = session.messages[1];
    expect(assistant).toMatchObject({ role: 'assistant', content: 'I will inspect it' });
    expect(assistant && 'toolCalls' in assistant ? assistant.toolCalls : undefined).toEqual([
      { callId: 'call-1', name: 'list_dir', arguments: { path: '.' } },
    ]);
    expect(session.messages[2]).toEqual({ role: 'tool', callId: 'call-1', content: 'app.py' });
  });

  it('reset appends one entry and clears messages, usage and turns', () => {
    const { session } = seedSession();
    session.reset();
    expect(session.journal).toHaveLength(6);
    expect(session.messages).toEqual([]);
    expect(session.turnCount).toBe(0);
    expect(session.totalUsage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });

  it('the journal is plain JSON (survives JSON round trip)', () => {
    const { session } = seedSession();
    expect(JSON.parse(JSON.stringify(session.journal))).toEqual(session.journal);
  });

  it('toJSON carries savedAt, which never enters journal-derived state', () => {
    const { config, session } = seedSession();
    const snapshot = session.toJSON();
    expect(typeof snapshot.savedAt).toBe('string');
    expect(Number.isNaN(Date.parse(snapshot.savedAt))).toBe(false);
    expect(stableJson(session.journal)).not.toContain('savedAt');
    const restored = Session.fromJSON(JSON.parse(JSON.stringify(snapshot)), config);
    expect(stableJson(restored.journal)).toBe(stableJson(session.journal));
    expect(restored.messages).toEqual(session.messages);
  });
});

describe('contract §4 journal schema version', () => {
  it('a snapshot with an unknown version is refused with a clear error', () => {
    const { config, session } = seedSession();
    const snapshot = { ...session.toJSON(), version: 999 };
    expect(() => Session.fromJSON(snapshot, config)).toThrow(/999/);
    try {
      Session.fromJSON(snapshot, config);
    } catch (error) {
      expect(HarnessError.isInstance(error)).toBe(true);
      expect((error as HarnessError).reason).toBe('unsupported_journal_version');
    }
  });

  it('a journal file carries its version; an unknown version is refused, the current one reads back', async () => {
    const { session } = seedSession();
    const text = serializeJournal(session.journal);
    expect(text.split('\n')[0]).toMatch(/"version":\s*\d+/);
    expect(stableJson(parseJournal(text))).toBe(stableJson(session.journal));
    const future = text.replace(/"version":\s*\d+/, '"version":42');
    expect(() => parseJournal(future)).toThrow(/42/);
    const path = `${workspace()}/run.jsonl`;
    await writeJournalFile(path, session.journal);
    expect(stableJson(await readJournalFile(path))).toBe(stableJson(session.journal));
  });
});

describe('contract §3 messages after a final answer', () => {
  it('messages end with the last observation; the answer joins messages when the conversation continues', async () => {
    const config = new Config({ cwd: workspace(), maxTurns: 5 });
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'c1', name: 'missing', arguments: {} }), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('first answer'), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('second answer'), StreamEvent.messageComplete()],
    ]);
    const session = new Session(config, { client });
    const agent = new Agent(config, { session });
    await drain(agent.run('one'));
    expect(session.messages.at(-1)?.role).toBe('tool');
    expect(session.journal.some((e) => e.type === 'agent_end')).toBe(true);
    await drain(agent.run('two'));
    const second = client.requests[2]?.messages ?? [];
    expect(second.slice(-2)).toEqual([
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('a run that answers at once leaves messages ending with the user message', async () => {
    const config = new Config({ cwd: workspace() });
    const client = new ScriptedClient([[StreamEvent.textDelta('hi'), StreamEvent.messageComplete()]]);
    const session = new Session(config, { client });
    await drain(new Agent(config, { session }).run('hello'));
    expect(session.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('the system prompt comes first in the model context', async () => {
    const config = new Config({ cwd: workspace(), systemPrompt: 'Be brief.' });
    const client = new ScriptedClient([[StreamEvent.textDelta('ok'), StreamEvent.messageComplete()]]);
    await drain(new Agent(config, { session: new Session(config, { client }) }).run('hello'));
    expect(client.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });
});

describe('contract §3/§8 replay of an agent run', () => {
  it('rebuilds messages, usage and turn count with a byte-identical journal, without a model or tools', async () => {
    const config = new Config({ cwd: workspace(), maxTurns: 4 });
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'missing', arguments: {} }),
        StreamEvent.messageComplete(use(5, 2)),
      ],
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete(use(7, 3))],
    ]);
    const session = new Session(config, { client });
    await drain(new Agent(config, { session }).run('go'));
    const saved = JSON.parse(JSON.stringify(session.journal)) as unknown[];
    const replayed = Session.replay(saved, config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    expect(replayed.messages).toEqual(session.messages);
    expect(replayed.totalUsage).toEqual(use(12, 5));
    expect(replayed.turnCount).toBe(2);
    const kinds = new Set(session.journal.map((e) => e.type));
    expect(kinds.has('transition')).toBe(true);
    expect(kinds.has('text_delta' as never)).toBe(false);
  });

  it('replaying the journal up to any event gives the state the live session had at that event', async () => {
    const config = new Config({ cwd: workspace(), systemPrompt: 'sys', maxTurns: 5 });
    const client = new ScriptedClient([
      [
        StreamEvent.textDelta('a'),
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'missing', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'c2', name: 'missing', arguments: {} }),
        StreamEvent.messageComplete(use(5, 1)),
      ],
      [
        StreamEvent.toolCallComplete({ callId: 'c3', name: 'missing', arguments: {} }),
        StreamEvent.messageComplete(use(7, 2)),
      ],
      [StreamEvent.textDelta('fin'), StreamEvent.messageComplete(use(9, 3))],
    ]);
    const session = new Session(config, { client });
    const agent = new Agent(config, { session });
    const seen: { entries: number; messages: unknown; turns: number; usage: unknown }[] = [];
    agent.events.subscribe(() => {
      seen.push({
        entries: session.journal.length,
        messages: structuredClone(session.messages),
        turns: session.turnCount,
        usage: { ...session.totalUsage },
      });
    });
    await drain(agent.run('go'));
    expect(seen.length).toBeGreaterThan(8);
    for (const moment of seen) {
      const replayed = Session.replay(session.journal.slice(0, moment.entries), config);
      expect(replayed.messages).toEqual(moment.messages);
      expect(replayed.turnCount).toBe(moment.turns);
      expect(replayed.totalUsage).toEqual(moment.usage);
    }
  });

  it('the journal records transitions as {type, from, to, event} in machine order', async () => {
    const config = new Config({ cwd: workspace() });
    const client = new ScriptedClient([[StreamEvent.textDelta('ok'), StreamEvent.messageComplete()]]);
    const session = new Session(config, { client });
    await drain(new Agent(config, { session }).run('go'));
    const transitions = session.journal.filter((e) => e.type === 'transition');
    expect(transitions.at(-1)).toMatchObject({ type: 'transition', from: 'awaitingModel', to: 'done' });
    expect(typeof transitions.at(-1)?.event).toBe('string');
  });
});
