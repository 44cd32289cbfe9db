// Sub-agents and a handoff, offline on scripted models. A `lead` agent delegates research to a
// `researcher` agent tool, whose child agent runs in its own session beside the lead's (here in
// a `memory:` store); the child's usage counts into the lead's budget. Then a `triage` agent
// hands the conversation to `billing`, whose instructions and tools take over.
// Run: npm run example -- examples/subagents.ts
import {
  Agent,
  agentTool,
  Config,
  defineTool,
  handoffTool,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from 'agent-harness';
import { readSessionTree } from 'agent-harness/subagents';
import { z } from 'zod';

const usage = { promptTokens: 40, completionTokens: 10, totalTokens: 50 };
const call = (callId: string, name: string, args: Record<string, string>) => [
  StreamEvent.toolCallComplete({ callId, name, arguments: args }),
  StreamEvent.messageComplete(usage),
];
const say = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete(usage)];

// 1. Delegation: the researcher is a tool of the lead; the model calls it with { task }.
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city up.',
  kind: ToolKind.READ,
  schema: z.object({ city: z.string() }),
  execute: ({ params }) => `${params.city}: 522,000 people`,
});
const researcher = agentTool({
  name: 'researcher',
  description: 'Finds facts about a city.',
  instructions: 'You find facts. Answer in one line.',
  config: new Config({ maxTurns: 4 }),
  client: new ScriptedClient([call('l1', 'lookup', { city: 'Lyon' }), say('Lyon has 522,000 people.')]),
  registry: new ToolRegistry().register(lookup),
});
const store = await openStore('memory:');
const config = new Config({ maxTurns: 4, budget: { maxTotalTokens: 1_000 } });
const lead = new Agent(config, {
  client: new ScriptedClient([
    call('r1', 'researcher', { task: 'How many people live in Lyon?' }),
    say('About 522,000.'),
  ]),
  tools: new ToolRegistry().register(researcher),
  session: new Session(config, { store, id: 'lead' }),
});
lead.children$.subscribe((child) =>
  console.log(`child agent ${child.name} at depth ${child.depth}: ${child.sessionId}`),
);
for await (const event of lead.run('Tell me about Lyon.')) {
  if (event.type === 'tool_call_complete')
    console.log(`  ${event.data.name} -> ${event.data.output ?? event.data.error}`);
  if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
}
console.log(`tokens counted in the lead: ${lead.session.totalUsage.totalTokens}`);
await lead.session.close();
const tree = await readSessionTree(store, 'lead');
console.log(`sessions in the store: ${[...tree.journals.keys()].join(', ')}`);
await store.close();

// 2. Handoff: triage hands the conversation to billing.
const billingTools = new ToolRegistry().register(
  defineTool({
    name: 'refund',
    description: 'Refunds the last order.',
    kind: ToolKind.WRITE,
    schema: z.object({}),
    execute: () => 'refunded 20 EUR',
  }),
);
const triageTools = new ToolRegistry().register(
  handoffTool({ agent: { name: 'billing', instructions: 'You handle refunds.', registry: billingTools } }),
);
const desk = new ScriptedClient([call('h1', 'transfer_to_billing', {}), call('f1', 'refund', {}), say('Refunded.')]);
const triage = new Agent(new Config({ systemPrompt: 'You triage requests.' }), { client: desk, tools: triageTools });
for await (const event of triage.run('I want my money back')) {
  if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
}
const handoff = triage.session.journal.find((entry) => entry.type === 'handoff');
if (handoff?.type === 'handoff') console.log(`handoff: ${handoff.from} -> ${handoff.to}`);
console.log(`billing saw tools: ${desk.requests[1]?.tools.map((tool) => tool.name).join(', ')}`);
