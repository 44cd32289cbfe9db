import { describe, expect, it } from 'vitest';
import { estimateContextTokens, estimateToolTokens } from '../../src/context/index.js';
import { type Message, StreamEvent, type ToolDefinition } from '../../src/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { tinyTool } from './support/pages.js';

const tiny = tinyTool;

/** A model that asks for 40 calls a turn, offered tools or not (models do call withheld tools); no usage. */
class Insistent {
  readonly requests: { messages: Message[]; tools: readonly ToolDefinition[] | undefined }[] = [];
  async *chatCompletion(messages: readonly Message[], tools?: readonly ToolDefinition[]): AsyncGenerator<StreamEvent> {
    this.requests.push({ messages: messages.slice(), tools });
    const n = this.requests.length;
    for (let i = 0; i < 40; i++) yield StreamEvent.toolCallComplete({ callId: `c${n}-${i}`, name: 'r', arguments: {} });
    yield StreamEvent.messageComplete();
  }
}

describe('context compaction and calls answered without running (tools withheld)', () => {
  it('counts their error results, so no request goes over maxTokens', async () => {
    const client = new Insistent();
    const { agent } = makeAgent(client, [() => tiny], {
      cwd: tempWorkspace(),
      budget: { maxTurns: 6, softLimitRatio: 0.3 },
      context: { maxTokens: 3_000 },
    });
    const events = await collect(agent.run('go'));
    // The withheld turn's 40 error results alone fill the context: it ends rather than send it.
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'context_overflow' } });
    for (const [n, request] of client.requests.entries()) {
      const size = estimateContextTokens(request.messages) + estimateToolTokens(request.tools);
      expect(size, `request ${n + 1}`).toBeLessThanOrEqual(3_000);
    }
  });
});
