import { describe, expect, it } from 'vitest';
import { estimateContextTokens } from '../../src/context/index.js';
import { type Message, StreamEvent } from '../../src/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const page = loremPages(170);

/**
 * A client that consumes the array it is sent (as a converting client may, with `shift()`), and
 * reports no usage: the context's size must come from what was sent, not from what is left.
 */
class ConsumingClient {
  readonly requests: Message[][] = [];
  async *chatCompletion(messages: Message[]): AsyncGenerator<StreamEvent> {
    this.requests.push(messages.slice());
    messages.length = 0;
    const n = this.requests.length;
    if (n > 30) yield StreamEvent.textDelta('read them all');
    else yield StreamEvent.toolCallComplete({ callId: `p${n}`, name: 'read_page', arguments: { page: n } });
    yield StreamEvent.messageComplete();
  }
}

describe('context compaction with a client that changes the messages it is sent', () => {
  it('still measures what was sent, so no request goes over maxTokens', async () => {
    const client = new ConsumingClient();
    const { agent, session } = makeAgent(client, [() => page], {
      cwd: tempWorkspace(),
      maxTurns: 40,
      context: { maxTokens: 3_000 },
    });
    const events = await collect(agent.run('Read it.'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'read them all' } });
    for (const [n, sent] of client.requests.entries()) {
      expect(estimateContextTokens(sent), `request ${n + 1}`).toBeLessThanOrEqual(3_000);
    }
    expect(session.journal.some((entry) => entry.type === 'compaction')).toBe(true);
  });
});
