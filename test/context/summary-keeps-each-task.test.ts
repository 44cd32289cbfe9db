import { describe, expect, it } from 'vitest';
import { type Message, ScriptedClient, Session, StreamEvent, stableJson } from '../../src/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const page = loremPages(170);

/** A model that reads a page a turn and answers every eighth request. */
class Reader {
  readonly requests: Message[][] = [];
  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    this.requests.push(messages.slice());
    const n = this.requests.length;
    if (n % 8 === 0) yield StreamEvent.textDelta(`answer ${n}`);
    else yield StreamEvent.toolCallComplete({ callId: `c${n}`, name: 'read_page', arguments: { page: n } });
    yield StreamEvent.messageComplete();
  }
}

/** Calls of each assistant message answered by exactly the tool messages after it. */
function paired(messages: readonly Message[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role === 'tool' && messages[i - 1]?.role !== 'tool' && messages[i - 1]?.role !== 'assistant')
      return false;
    if (message.role !== 'assistant' || message.toolCalls === undefined) continue;
    const ids: string[] = [];
    for (let j = i + 1; messages[j]?.role === 'tool'; j++) ids.push((messages[j] as { callId: string }).callId);
    if (stableJson(ids) !== stableJson(message.toolCalls.map((call) => call.callId))) return false;
  }
  return true;
}

describe('summarising a conversation of several runs', () => {
  it("keeps each run's task verbatim in every request: a summary never replaces the user's message", async () => {
    const summariser = new ScriptedClient(
      Array.from({ length: 40 }, () => [StreamEvent.textDelta('pages read so far'), StreamEvent.messageComplete()]),
    );
    const client = new Reader();
    const { agent, session, config } = makeAgent(client, [() => page], {
      cwd: tempWorkspace(),
      maxTurns: 40,
      context: { maxTokens: 2_500, strategy: 'summarise', client: summariser },
    });
    expect((await collect(agent.run('TASK ONE'))).at(-1)?.type).toBe('agent_end');
    const second = client.requests.length;
    expect((await collect(agent.run('TASK TWO'))).at(-1)?.type).toBe('agent_end');
    expect(summariser.calls).toBeGreaterThan(1);
    for (const [n, sent] of client.requests.entries()) {
      expect(sent[0], `request ${n + 1}`).toEqual({ role: 'user', content: 'TASK ONE' });
      if (n >= second)
        expect(
          sent.filter((m) => m.content === 'TASK TWO'),
          `request ${n + 1}`,
        ).toHaveLength(1);
      expect(paired(sent), `request ${n + 1}`).toBe(true);
    }
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    expect(replayed.messages).toEqual(session.messages);
  });
});
