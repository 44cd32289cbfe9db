// A reasoning model, offline: each turn streams its thinking, returns it as a signed reasoning part,
// and asks for a tool; the agent journals the parts with their turn and sends them back, unchanged,
// only to the provider that made them. checkReasoningIntegrity checks what was actually sent.
// Run: npm run example -- examples/reasoning.ts

import type { Message, ModelClient } from 'agent-harness';
import { Agent, Config, defineTool, StreamEvent, ToolKind, ToolRegistry } from 'agent-harness';
import { checkReasoningIntegrity, type SentRequest } from 'agent-harness/testing';
import { z } from 'zod';

const sent: SentRequest[] = [];

/** Stands in for Claude with extended thinking: thinking, its signature, then a call or the answer. */
const thinker: ModelClient = {
  provider: 'anthropic',
  model: 'scripted-thinker',
  async *chatCompletion(messages: readonly Message[]) {
    sent.push({ messages: structuredClone(messages), provider: 'anthropic' });
    const looked = messages.filter((message) => message.role === 'tool').length;
    const thought = looked === 0 ? 'I should look the order up first.' : 'The order has shipped; say so.';
    for (const word of thought.split(/(?<= )/)) yield StreamEvent.reasoningDelta(word);
    yield StreamEvent.reasoningComplete({
      type: 'reasoning',
      provider: 'anthropic',
      text: thought,
      signature: `sig-${looked}`,
    });
    if (looked === 0) {
      yield StreamEvent.toolCallComplete({ callId: 'toolu_1', name: 'order_status', arguments: { id: 'A-17' } });
      yield StreamEvent.messageComplete(
        { promptTokens: 220, completionTokens: 40, totalTokens: 260, reasoningTokens: 25 },
        'tool_calls',
      );
      return;
    }
    yield StreamEvent.textDelta('Order A-17 has shipped.');
    yield StreamEvent.messageComplete(
      { promptTokens: 300, completionTokens: 30, totalTokens: 330, cachedPromptTokens: 220 },
      'stop',
    );
  },
};

const orderStatus = defineTool({
  name: 'order_status',
  description: 'The status of an order.',
  kind: ToolKind.READ,
  schema: z.object({ id: z.string() }),
  execute: ({ params }) => `${params.id}: shipped`,
});

const config = new Config();
const agent = new Agent(config, { client: thinker, tools: new ToolRegistry(config).register(orderStatus) });
for await (const event of agent.run('Where is order A-17?')) {
  if (event.type === 'reasoning_delta') process.stdout.write(`\x1b[2m${event.data.content}\x1b[0m`);
  if (event.type === 'tool_call_start') process.stdout.write(`\n→ ${event.data.name}\n`);
  if (event.type === 'agent_end') process.stdout.write(`\n${event.data.response}\n`);
}

const journaled = agent.session.journal.flatMap((entry) =>
  entry.type === 'assistant_message' || entry.type === 'agent_end' ? (entry.reasoning ?? []) : [],
);
console.log(`reasoning parts journaled: ${journaled.length}; usage:`, agent.session.totalUsage);
const problems = checkReasoningIntegrity(agent.session.journal, sent);
console.log(problems.length === 0 ? 'reasoning integrity: every part went back with its turn, unchanged' : problems);
if (problems.length > 0) process.exitCode = 1;
