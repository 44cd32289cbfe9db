// OpenTelemetry traces of a run, exported over OTLP/HTTP (JSON) to a collector. The endpoint is
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, default http://127.0.0.1:4318/v1/traces (a local collector
// or Jaeger). Needs the optional peer dependency @opentelemetry/api, plus an SDK and exporter.
// Run: npm run example -- examples/otel-traces.ts

import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Agent, Config, defineTool, ScriptedClient, StreamEvent, ToolKind, ToolRegistry } from 'agent-harness';
import { traceAgent } from 'agent-harness/telemetry';
import { z } from 'zod';

const url = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? 'http://127.0.0.1:4318/v1/traces';
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))] });

const weather = defineTool({
  name: 'weather',
  description: 'Current weather in a city.',
  kind: ToolKind.READ,
  schema: z.object({ city: z.string() }),
  execute: ({ params }) => `${params.city}: 18 °C, light rain`,
});

const usage = { promptTokens: 120, completionTokens: 14, totalTokens: 134 };
const client = new ScriptedClient([
  [
    StreamEvent.toolCallComplete({ callId: 'w1', name: 'weather', arguments: { city: 'Lyon' } }),
    StreamEvent.messageComplete(usage),
  ],
  [StreamEvent.textDelta('Lyon: 18 °C, light rain.'), StreamEvent.messageComplete(usage)],
]);

const config = new Config({ maxTurns: 4 });
const registry = new ToolRegistry(config).register(weather);
const agent = new Agent(config, { client, tools: registry });

// Spans follow the run as it goes: invoke_agent, then chat and execute_tool under it.
const tracing = traceAgent(agent, {
  tracer: provider.getTracer('weather-service'),
  agentName: 'weather',
  model: 'scripted',
});
for await (const event of agent.run('What is the weather in Lyon?')) {
  if (event.type === 'agent_end') console.log(`answer: ${event.data.response}`);
}
tracing.unsubscribe();
await provider.shutdown(); // flushes the exporter
console.log(`traces sent to ${url}`);
