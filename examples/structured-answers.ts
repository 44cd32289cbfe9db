// A typed final answer, tool arguments as they stream, a cap on parallel reads, and a bound on
// invalid calls — with a scripted model, so it runs offline.
// Run: npm run example -- examples/structured-answers.ts

import { Agent, Config, defineTool, ScriptedClient, Session, StreamEvent, ToolKind, ToolRegistry } from 'agent-harness';
import { contentText } from 'agent-harness/tools';
import { z } from 'zod';

const lookup = defineTool({
  name: 'population',
  description: 'Population of a city, in thousands.',
  kind: ToolKind.READ, // read tools of one turn run side by side, at most maxParallelTools at once
  schema: z.object({ city: z.string() }),
  execute: ({ params }) => String({ Lyon: 522, Nantes: 320, Lille: 236 }[params.city] ?? 0),
});

const usage = { promptTokens: 50, completionTokens: 10, totalTokens: 60 };
const call = (callId: string, city: string) => [
  // A real adapter streams the arguments in pieces; here, two pieces per call.
  StreamEvent.toolCallDelta({ callId, name: 'population', argumentsDelta: '{"city": ' }),
  StreamEvent.toolCallDelta({ callId, name: 'population', argumentsDelta: `"${city}"}` }),
  StreamEvent.toolCallComplete({ callId, name: 'population', arguments: { city } }),
];
const client = new ScriptedClient([
  [...call('p1', 'Lyon'), ...call('p2', 'Nantes'), ...call('p3', 'Lille'), StreamEvent.messageComplete(usage)],
  // The first answer is not what the schema asks for: it goes back with the problem.
  [StreamEvent.textDelta('The biggest is Lyon.'), StreamEvent.messageComplete(usage)],
  [StreamEvent.textDelta('{"biggest": "Lyon", "thousands": 522}'), StreamEvent.messageComplete(usage)],
]);

const config = new Config({ cwd: process.cwd(), maxTurns: 5, maxParallelTools: 2, maxInvalidToolCalls: 3 });
const session = new Session(config);
const agent = new Agent(config, { client, tools: new ToolRegistry(config).register(lookup), session });

const Answer = z.object({ biggest: z.string(), thousands: z.number() });
const pieces: string[] = [];
for await (const event of agent.run('Which of Lyon, Nantes and Lille is biggest?', { output: Answer })) {
  if (event.type === 'tool_call_delta') pieces.push(event.data.argumentsDelta);
  if (event.type === 'tool_call_start')
    console.log(`calling ${event.data.name} ${JSON.stringify(event.data.arguments)}`);
  if (event.type === 'agent_end') {
    // Typed from the schema: `thousands` is a number.
    console.log(`answer: ${event.data.output.biggest} (${event.data.output.thousands} thousand)`);
    console.log(`turns: ${event.data.turnCount}`);
  }
  if (event.type === 'agent_error') console.log(`stopped: ${event.data.reason}: ${event.data.message}`);
}
console.log(`argument pieces streamed: ${pieces.length}`);
const retry = contentText(client.requests[2]?.messages.at(-1)?.content ?? '');
console.log(`sent back: ${retry.slice(0, retry.indexOf('.') + 1)}`);
console.log(`journaled output: ${JSON.stringify(Session.replay(session.journal, config).lastOutput)}`);
