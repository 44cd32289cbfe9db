import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Agent, Config } from '../../src/index.js';
import { traceAgent } from '../../src/telemetry.js';
import { drain } from '../support/runs.js';
import { delegationClients, leadRegistry } from './support/delegation.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('agent-harness-subagents');

/** The span tree as indented names, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;
  const ids = new Set(spans.map(idOf));
  const start = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = spans
      .filter((span) =>
        parent === undefined
          ? !ids.has(span.parentSpanContext?.spanId ?? '')
          : span.parentSpanContext?.spanId === parent,
      )
      .sort((a, b) => start(a) - start(b));
    for (const child of children) {
      lines.push(`${'  '.repeat(depth)}${child.name}`);
      walk(idOf(child), depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

describe('traceAgent over sub-agents', () => {
  it("nests each child's invoke_agent span under its call's execute_tool span, three levels deep", async () => {
    exporter.reset();
    const clients = delegationClients();
    const agent = new Agent(new Config(), { client: clients.lead, registry: leadRegistry(clients, () => {}) });
    const stop = traceAgent(agent, { tracer, agentName: 'lead', model: 'scripted' });
    const events = await drain(agent.run('write the report'));
    stop();
    expect(events.at(-1)?.type).toBe('agent_end');
    const analyst = ['      invoke_agent analyst', '        chat', '        execute_tool effect', '        chat'];
    const researcher = [
      '    invoke_agent researcher',
      '      chat',
      '      execute_tool analyst',
      ...analyst.map((line) => `  ${line}`),
      '      chat',
    ];
    expect(tree(exporter.getFinishedSpans())).toEqual([
      'invoke_agent lead',
      '  chat scripted',
      '  execute_tool researcher',
      ...researcher,
      '  chat scripted',
      '  execute_tool researcher',
      ...researcher,
      '  chat scripted',
    ]);
    const child = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent analyst');
    expect(child?.attributes).toMatchObject({
      'gen_ai.agent.name': 'analyst',
      'gen_ai.conversation.id': 'agent.t1.r1.t1.a1',
      'gen_ai.usage.input_tokens': 20,
    });
  });
});
