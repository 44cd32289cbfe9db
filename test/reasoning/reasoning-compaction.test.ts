import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message } from '../../src/core/messages.js';
import type { ModelClient } from '../../src/core/model-client.js';
import { tokenUsage } from '../../src/core/usage.js';
import { Agent, Config, StreamEvent, ToolRegistry } from '../../src/index.js';
import { assertLoopInvariants, checkReasoningIntegrity, type SentRequest } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/tool.js';

/** Eight tool turns, each with a signed thinking block; the tool answers with a long output. */
function longThinker(sent: SentRequest[]): ModelClient {
  // Counted here, not from the context: a summary takes the earlier results out of it.
  let done = 0;
  return {
    provider: 'anthropic',
    async *chatCompletion(messages: readonly Message[]) {
      sent.push({ messages: structuredClone(messages), provider: 'anthropic' });
      const n = done++;
      yield StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'anthropic',
        text: `step ${n}`,
        signature: `sig-${n}`,
      });
      if (n < 8) {
        yield StreamEvent.toolCallComplete({ callId: `call_${n}`, name: 'dump', arguments: { n } });
        yield StreamEvent.messageComplete(tokenUsage(0, 0), 'tool_calls');
        return;
      }
      yield StreamEvent.textDelta('finished');
      yield StreamEvent.messageComplete(tokenUsage(0, 0), 'stop');
    },
  };
}

const dump = defineTool({
  name: 'dump',
  description: 'prints a lot',
  kind: 'read',
  schema: z.object({ n: z.number() }),
  execute: ({ params }) => `${params.n}: ${'x'.repeat(2_000)}`,
});

describe('reasoning through compaction', () => {
  for (const strategy of ['elide', 'summarise'] as const) {
    it(`${strategy}: every part stays with its turn (or goes with the whole turn), in every request`, async () => {
      const sent: SentRequest[] = [];
      const summariser: ModelClient = {
        provider: 'anthropic',
        async *chatCompletion() {
          yield StreamEvent.textDelta('summary of the earlier steps');
          yield StreamEvent.messageComplete(tokenUsage(0, 0), 'stop');
        },
      };
      const config = new Config({
        maxTurns: 30,
        context: { maxTokens: 2_500, strategy, ...(strategy === 'summarise' ? { client: summariser } : {}) },
      });
      const agent = new Agent(config, { client: longThinker(sent), tools: new ToolRegistry(config).register(dump) });
      const events = [];
      for await (const event of agent.run('go')) events.push(event);
      expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: 'agent_end' });
      const journal = agent.session.journal;
      assertLoopInvariants(journal);
      expect(journal.some((entry) => entry.type === 'compaction')).toBe(true);
      expect(checkReasoningIntegrity(journal, sent)).toEqual([]);
      // The prefix a compaction does not change goes out byte for byte: a prompt cache of it survives.
      const at = journal.findIndex((entry) => entry.type === 'compaction');
      const compaction = journal[at] as { from: number };
      const before = journal.slice(0, at).filter((entry) => entry.type === 'turn_start').length;
      const [last, next] = [sent[before - 1], sent[before]];
      expect(compaction.from).toBeGreaterThan(0);
      expect(JSON.stringify(next?.messages.slice(0, compaction.from))).toBe(
        JSON.stringify(last?.messages.slice(0, compaction.from)),
      );
      // Each assistant turn still in the context carries its own thinking block.
      for (const message of agent.session.messages) {
        if (message.role === 'assistant' && message.toolCalls !== undefined) {
          const n = Number(message.toolCalls[0]?.callId.slice('call_'.length));
          expect(message.reasoning).toEqual([
            { type: 'reasoning', provider: 'anthropic', text: `step ${n}`, signature: `sig-${n}` },
          ]);
        }
      }
    });
  }
});
