import { describe, expect, it } from 'vitest';
import { Agent, Config, type Message, Session, StreamEvent, stableJson, ToolRegistry } from '../../src/index.js';
import { collect } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const page = loremPages(150);

/** A model that reads the next page (counted from the calls in its context), and answers after 12. */
class PageReader {
  readonly requests: Message[][] = [];
  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    this.requests.push(messages.slice());
    const next = messages.filter((m) => m.role === 'assistant' && m.toolCalls !== undefined).length + 1;
    if (next > 12) yield StreamEvent.textDelta('read twelve pages');
    else yield StreamEvent.toolCallComplete({ callId: `p${next}`, name: 'read_page', arguments: { page: next } });
    yield StreamEvent.messageComplete();
  }
}

function setup(client: PageReader) {
  const config = new Config({ cwd: tempWorkspace(), maxTurns: 20, context: { maxTokens: 2_000 } });
  const registry = new ToolRegistry(config).register(page);
  return { config, registry, client };
}

describe('resume after a crash, with compactions in the journal', () => {
  it('sends the compacted context the uncut run sent, from every cut after a compaction', async () => {
    const first = setup(new PageReader());
    const whole = new Session(first.config, { client: first.client, registry: first.registry });
    await collect(new Agent(first.config, { session: whole }).run('Read the pages.'));
    const journal = whole.journal;
    const compactions = journal.flatMap((entry, index) => (entry.type === 'compaction' ? [index] : []));
    expect(compactions.length).toBeGreaterThan(2);
    for (const at of compactions) {
      // A crash right after the compaction was journaled: the next request had not been made.
      const cut = JSON.parse(stableJson(journal.slice(0, at + 1)));
      const again = setup(new PageReader());
      const session = Session.replay(cut, again.config, { client: again.client, registry: again.registry });
      const events = await collect(new Agent(again.config, { session }).resume());
      expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'read twelve pages' } });
      // Its first request is the request the uncut run made after that compaction.
      const made = journal.slice(0, at + 1).filter((entry) => entry.type === 'turn_start').length;
      expect(again.client.requests[0]).toEqual(first.client.requests[made]);
      expect(session.messages).toEqual(whole.messages);
    }
  });
});
