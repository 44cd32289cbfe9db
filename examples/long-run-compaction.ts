// A 60-turn run whose context would grow past 34,000 tokens, kept under 4,000 by eliding old
// tool outputs — with a scripted model, so it runs offline.
// Run: npm run example -- examples/long-run-compaction.ts

import {
  Agent,
  Config,
  defineTool,
  type Message,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from 'agent-harness';
import { estimateContextTokens } from 'agent-harness/context';
import { contentText } from 'agent-harness/tools';
import { z } from 'zod';

const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the manual.',
  kind: ToolKind.READ,
  schema: z.object({ page: z.number().int() }),
  execute: ({ params }) => `page ${params.page}: ${'the quick brown fox jumps over the lazy dog. '.repeat(50)}`,
});

// The model reads pages 1..60, one a turn, then answers. It reports no usage, so the harness
// estimates the context's size (4 characters a token); a real provider's counts are used when it reports them.
let largest = 0;
const turn = (page: number) => (messages: readonly Message[]) => {
  largest = Math.max(largest, estimateContextTokens(messages));
  return [
    StreamEvent.toolCallComplete({ callId: `p${page}`, name: 'read_page', arguments: { page } }),
    StreamEvent.messageComplete(),
  ];
};
const client = new ScriptedClient([
  ...Array.from({ length: 60 }, (_, i) => turn(i + 1)),
  [StreamEvent.textDelta('The manual is about a fox.'), StreamEvent.messageComplete()],
]);

const config = new Config({ cwd: process.cwd(), maxTurns: 70, context: { maxTokens: 4_000 } });
const registry = new ToolRegistry(config).register(readPage);
const session = new Session(config);
const agent = new Agent(config, { client, tools: registry, session });

for await (const event of agent.run('Read the manual and say what it is about.')) {
  if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
  if (event.type === 'agent_error') console.log(`stopped: ${event.data.reason}: ${event.data.message}`);
}

const compactions = session.journal.filter((entry) => entry.type === 'compaction');
const elided = session.messages.filter(
  (m) => m.role === 'tool' && contentText(m.content).startsWith('[elided '),
).length;
console.log(`compactions: ${compactions.length}; tool outputs elided: ${elided} of 60`);
console.log(`largest request: ${largest} tokens (limit 4000)`);
// The same journal without its compaction entries: the context the model would have been sent.
const uncompacted = Session.replay(
  session.journal.filter((entry) => entry.type !== 'compaction'),
  config,
);
console.log(`without compaction: ${estimateContextTokens(uncompacted.messages)} tokens`);
// Replay rebuilds exactly the context the model saw, compactions included.
const replayed = Session.replay(session.journal, config);
console.log(
  `replayed context equals the live one: ${JSON.stringify(replayed.messages) === JSON.stringify(session.messages)}`,
);
