// Two tools (a class and a defineTool), a scripted model that calls both at once, a budget with a
// soft limit, a subscriber, and the run's events read as they come.
// Run: npm run example -- examples/custom-tools.ts

import type { ToolInvocation } from 'agent-harness';
import {
  Agent,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  Tool,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from 'agent-harness';
import { z } from 'zod';

const weatherSchema = z.object({ city: z.string().min(1) });

/** A tool as a class: kind `read`, so calls in one turn run side by side. */
class Weather extends Tool<typeof weatherSchema> {
  name = 'weather';
  description = 'Current weather in a city.';
  kind = ToolKind.READ;
  schema = weatherSchema;
  async execute({ params }: ToolInvocation<z.output<typeof weatherSchema>>) {
    return ToolResult.success(`${params.city}: 18 °C, light rain`);
  }
}

/** A tool from a definition: a string result means success. */
const convert = defineTool({
  name: 'to_fahrenheit',
  description: 'Converts Celsius to Fahrenheit.',
  kind: ToolKind.READ,
  schema: z.object({ celsius: z.number() }),
  execute: ({ params }) => `${(params.celsius * 9) / 5 + 32} °F`,
});

const usage = (prompt: number, completion: number) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
});
const client = new ScriptedClient([
  [
    StreamEvent.textDelta('Checking. '),
    StreamEvent.toolCallComplete({ callId: 'w1', name: 'weather', arguments: { city: 'Lyon' } }),
    StreamEvent.toolCallComplete({ callId: 'f1', name: 'to_fahrenheit', arguments: { celsius: 18 } }),
    StreamEvent.messageComplete(usage(120, 30)),
  ],
  [StreamEvent.textDelta('Lyon: 18 °C (64.4 °F), light rain.'), StreamEvent.messageComplete(usage(180, 12))],
]);

const config = new Config({ cwd: process.cwd(), budget: { maxTurns: 4, maxCost: 0.01, softLimitRatio: 0.8 } });
const registry = new ToolRegistry(config).register(new Weather()).register(convert);
const session = new Session(config);
const agent = new Agent(config, { client, tools: registry, session });

// Subscribers are awaited in order; a slow one holds the loop back (backpressure).
agent.events.subscribe((event) => {
  if (event.type === 'tool_call_complete') console.log(`  ${event.data.name} -> ${event.data.output}`);
});

for await (const event of agent.run('What is the weather in Lyon, in Fahrenheit too?', {
  signal: AbortSignal.timeout(5_000),
})) {
  if (event.type === 'tool_call_start') console.log(`calling ${event.data.name}`);
  if (event.type === 'agent_end') {
    console.log(`answer: ${event.data.response}`);
    console.log(`turns: ${event.data.turnCount}, tokens: ${event.data.usage.totalTokens}`);
  }
  if (event.type === 'agent_error') console.log(`stopped: ${event.data.reason}: ${event.data.message}`);
}
