import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, type JournalEntry, ScriptedClient, Session } from '../../src/index.js';
import { parseJournal } from '../../src/journal.js';
import { checkToolPairing } from '../../src/session/journal-pairing.js';
import { lookupTool } from '../inspector/support/recorded-run.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';

const v1 = parseJournal(readFileSync(new URL('../fixtures/journal-v1.jsonl', import.meta.url), 'utf8'));

const call = (callId: string) => ({ callId, name: 'read_file', arguments: { path: `${callId}.txt` } });
const ask = (...ids: string[]): JournalEntry => ({ type: 'assistant_message', content: '', toolCalls: ids.map(call) });
const result = (callId: string): JournalEntry => ({ type: 'tool_result', callId, content: 'ok' });
const turn: JournalEntry = { type: 'turn_start' };
const user = (content = 'go'): JournalEntry => ({ type: 'user_message', content });
const aborted: JournalEntry = { type: 'agent_error', reason: 'aborted', message: 'stop' };

describe('checkToolPairing', () => {
  it('accepts the saved v1 fixture and journals recorded from real runs', async () => {
    expect(checkToolPairing(v1)).toBeUndefined();
    const client = new ScriptedClient([toolTurn('c1', 'lookup', { q: 'a' }), textTurn('done'), textTurn('again')]);
    const { agent, session } = makeAgent(client, [lookupTool], { cwd: process.cwd() });
    await collect(agent.run('look up a'));
    await collect(agent.run('and again'));
    expect(checkToolPairing(session.journal)).toBeUndefined();
  });

  it('accepts a journal that ends owing results (an interrupted run), and the closing results of the next run', () => {
    const interrupted = [user(), turn, ask('c1', 'c2'), result('c1'), aborted];
    expect(checkToolPairing(interrupted)).toBeUndefined();
    expect(checkToolPairing([...interrupted, result('c2'), user('next'), turn])).toBeUndefined();
    // resumed without a new message: the owed call runs, then the next request
    expect(checkToolPairing([...interrupted, result('c2'), turn])).toBeUndefined();
  });

  it('finds a deleted tool_result: the next request goes out with an unanswered call', () => {
    const journal = [user(), turn, ask('c1', 'c2'), result('c1'), turn];
    expect(checkToolPairing(journal)).toEqual({
      index: 4,
      message:
        "journal entry 4: a new model request (turn_start) while call 'c2' of the last assistant turn has no tool_result",
    });
  });

  it('finds the deleted and the altered tool_result line of the saved v1 fixture', () => {
    const second = v1.findIndex((entry) => entry.type === 'tool_result' && entry.callId === 'call-2');
    const deleted = v1.filter((_, i) => i !== second);
    expect(checkToolPairing(deleted)).toEqual({
      index: second + 2,
      message: `journal entry ${second + 2}: a new model request (turn_start) while call 'call-2' of the last assistant turn has no tool_result`,
    });
    const altered = v1.map((entry, i) => (i === second ? { ...entry, callId: 'call-3' } : entry));
    expect(checkToolPairing(altered)).toMatchObject({ index: second });
  });

  it('finds a new user message while calls are still unanswered', () => {
    expect(checkToolPairing([user(), turn, ask('c1'), aborted, user('next'), turn])).toMatchObject({
      index: 4,
      message: expect.stringContaining("a user_message while call 'c1' of the last assistant turn has no tool_result"),
    });
  });

  it('finds a tool_result whose callId was never asked for (an altered id)', () => {
    expect(checkToolPairing([user(), turn, ask('c1'), result('c9')])).toEqual({
      index: 3,
      message: "journal entry 3: a tool_result for call 'c9', which the last assistant turn did not ask for",
    });
  });

  it("finds a second result for one call, and a result in a later turn for an earlier turn's call", () => {
    expect(checkToolPairing([user(), turn, ask('c1'), result('c1'), result('c1')])).toEqual({
      index: 4,
      message: "journal entry 4: a second tool_result for call 'c1'",
    });
    const later = [user(), turn, ask('c1'), result('c1'), turn, ask('c2'), result('c1')];
    expect(checkToolPairing(later)).toMatchObject({ index: 6 });
  });

  it('accepts a model that reuses a call id in a later turn', () => {
    const reused = [user(), turn, ask('c1'), result('c1'), turn, ask('c1'), result('c1')];
    expect(checkToolPairing(reused)).toBeUndefined();
  });

  it('starts over after a reset', () => {
    expect(checkToolPairing([user(), turn, ask('c1'), { type: 'reset' }, user(), turn])).toBeUndefined();
    expect(checkToolPairing([user(), turn, ask('c1'), result('c1'), { type: 'reset' }, result('c1')])).toMatchObject({
      index: 5,
    });
  });

  it('accepts what the agent writes after a crash cut the journal mid-turn and a new message follows', async () => {
    const cut = v1.slice(0, v1.findIndex((entry) => entry.type === 'assistant_message') + 1);
    expect(checkToolPairing(cut)).toBeUndefined(); // ends owing call-1 and call-2
    const { config, registry } = makeAgent(new ScriptedClient([]), [], { cwd: process.cwd() });
    const session = Session.replay(cut, config, { client: new ScriptedClient([textTurn('fine')]), registry });
    await collect(new Agent(config, { session }).run('start over'));
    expect(checkToolPairing(session.journal)).toBeUndefined();
    expect(session.journal.filter((entry) => entry.type === 'tool_result')).toHaveLength(2);
  });
});
