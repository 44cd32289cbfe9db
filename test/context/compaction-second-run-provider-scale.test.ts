import { describe, expect, it } from 'vitest';
import { estimateContextTokens } from '../../src/context/index.js';
import { type Message, StreamEvent } from '../../src/index.js';
import { collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const page = loremPages(170);

/** A provider that counts twice the estimate, and reports it; reads 10 pages a run, then answers. */
class Doubling {
  readonly requests: Message[][] = [];
  private inRun = 0;
  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    this.requests.push(messages.slice());
    const prompt = 2 * estimateContextTokens(messages);
    if (++this.inRun > 10) {
      this.inRun = 0;
      yield StreamEvent.textDelta('done');
    } else
      yield StreamEvent.toolCallComplete({
        callId: `c${this.requests.length}`,
        name: 'read_page',
        arguments: { page: 1 },
      });
    yield StreamEvent.messageComplete(usage(prompt, 3));
  }
}

describe('context compaction over several runs, with a provider that counts more than the estimate', () => {
  it("keeps the second run's first request within maxTokens, as the provider counts", async () => {
    const client = new Doubling();
    const { agent } = makeAgent(client, [() => page], {
      cwd: tempWorkspace(),
      maxTurns: 20,
      context: { maxTokens: 6_000 },
    });
    await collect(agent.run('Read page 1 ten times.'));
    const first = client.requests.length;
    // A long second task: 2,500 estimated tokens, 5,000 as this provider counts.
    await collect(agent.run(`Now this: ${'x'.repeat(10_000)}`));
    const sent = client.requests[first] ?? [];
    expect(2 * estimateContextTokens(sent)).toBeLessThanOrEqual(6_000);
  });
});
