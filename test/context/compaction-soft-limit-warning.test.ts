import { describe, expect, it } from 'vitest';
import { estimateContextTokens, estimateToolTokens } from '../../src/context/index.js';
import { type Message, StreamEvent, type ToolDefinition } from '../../src/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { tinyTool } from './support/pages.js';

/** Withholding this small tool frees less than a warning note adds. */
const tiny = tinyTool;

/** Calls the tool while it is offered, answers once tools are withheld; reports no usage. */
class Caller {
  readonly requests: { messages: Message[]; tools: readonly ToolDefinition[] | undefined }[] = [];
  async *chatCompletion(messages: readonly Message[], tools?: readonly ToolDefinition[]): AsyncGenerator<StreamEvent> {
    this.requests.push({ messages: messages.slice(), tools });
    if (tools === undefined || tools.length === 0) yield StreamEvent.textDelta('ok');
    else yield StreamEvent.toolCallComplete({ callId: `c${this.requests.length}`, name: 'r', arguments: {} });
    yield StreamEvent.messageComplete();
  }
}

describe('context compaction and the soft-limit warning', () => {
  it('counts the warning note, so the request after it never goes over maxTokens', async () => {
    const over: string[] = [];
    for (let maxTokens = 90; maxTokens <= 130; maxTokens++) {
      const client = new Caller();
      const { agent } = makeAgent(client, [() => tiny], {
        cwd: tempWorkspace(),
        budget: { maxTurns: 5, softLimitRatio: 0.6 },
        context: { maxTokens },
      });
      await collect(agent.run('go'));
      for (const [n, request] of client.requests.entries()) {
        const size = estimateContextTokens(request.messages) + estimateToolTokens(request.tools);
        if (size > maxTokens) over.push(`maxTokens ${maxTokens}: request ${n + 1} is ${size} tokens`);
      }
    }
    expect(over).toEqual([]);
  });
});
