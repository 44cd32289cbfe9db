import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, Budget, ScriptedClient, StreamEvent, Tool, ToolKind, ToolResult } from '../../src/index.js';
import { traceAgent } from '../../src/telemetry.js';
import { approvalAgent, callsTurn, runDeciding } from '../approval/support.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn, usage } from '../support/fixtures.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('agent-harness-test');
afterEach(() => exporter.reset());

const empty = z.object({});
class FailingTool extends Tool<typeof empty> {
  name = 'explode';
  description = 'Always fails.';
  kind = ToolKind.READ;
  schema = empty;
  async execute(): Promise<ToolResult> {
    return ToolResult.error('the fuse was lit');
  }
}

const spans = () => exporter.getFinishedSpans();
/** An OpenTelemetry time (seconds, nanoseconds) as one comparable number. */
const nanos = ([seconds, nanoseconds]: readonly [number, number]) =>
  BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds);
const named = (prefix: string) => spans().filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

/** Two calls in one turn, then an answer. */
function twoCallRun() {
  const client = new ScriptedClient([
    [
      ...toolTurn('c1', 'checkpoint', { step: 1 }).slice(0, 1),
      ...toolTurn('c2', 'checkpoint', { step: 2 }, usage(11, 3)),
    ],
    textTurn('all done', usage(20, 4)),
  ]);
  return makeAgent(client, [(config) => new CheckpointTool(config)], { maxTurns: 4 });
}

describe('traceAgent: spans from the stream', () => {
  it('records cached, cache-write and reasoning token counts when the provider reported them', async () => {
    const client = new ScriptedClient([
      textTurn('thought it through', {
        ...usage(100, 40),
        cachedPromptTokens: 64,
        cacheWriteTokens: 8,
        reasoningTokens: 30,
      }),
    ]);
    const { agent } = makeAgent(client, [], { maxTurns: 2 });
    const stop = traceAgent(agent, { tracer, model: 'o-test', provider: 'openai' });
    await collect(agent.run('go'));
    stop();
    expect(named('chat')[0]?.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 64,
      'gen_ai.usage.cache_creation.input_tokens': 8,
      'gen_ai.usage.reasoning.output_tokens': 30,
    });
    expect(named('invoke_agent')[0]?.attributes).toMatchObject({ 'gen_ai.usage.reasoning.output_tokens': 30 });
  });

  it('gives one invoke_agent span per run, a chat span per request and an execute_tool span per call, nested', async () => {
    const { agent } = twoCallRun();
    const stop = traceAgent(agent, { tracer, agentName: 'helper', model: 'gpt-test', provider: 'openai' });
    await collect(agent.run('go'));
    stop();
    const [run] = named('invoke_agent');
    expect(named('invoke_agent')).toHaveLength(1);
    expect(run?.name).toBe('invoke_agent helper');
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'helper',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 31,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(run?.status.code).not.toBe(SpanStatusCode.ERROR);
    const chats = named('chat');
    expect(chats.map((span) => span.name)).toEqual(['chat gpt-test', 'chat gpt-test']);
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_calls'], ['stop']]);
    expect(chats.map((span) => span.attributes['gen_ai.usage.input_tokens'])).toEqual([11, 20]);
    expect(chats.map((span) => span.attributes['gen_ai.usage.output_tokens'])).toEqual([3, 4]);
    expect(chats[0]?.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai' });
    const tools = named('execute_tool');
    expect(tools.map((span) => [span.name, span.attributes['gen_ai.tool.call.id']])).toEqual([
      ['execute_tool checkpoint', 'c1'],
      ['execute_tool checkpoint', 'c2'],
    ]);
    for (const child of [...chats, ...tools]) expect(parentOf(child)).toBe(idOf(run));
    // The request that asked for the calls ends before they start. Within 1 ms: the SDK anchors
    // each span's clock on Date.now() (millisecond resolution), so two spans' times can disagree
    // by up to a millisecond.
    const [firstChat] = chats;
    const slack = 1_000_000n;
    for (const tool of tools) expect(nanos(tool.startTime) + slack >= nanos(firstChat?.endTime ?? [0, 0])).toBe(true);
  });

  it('records no message content unless asked, and all of it when asked', async () => {
    const quiet = twoCallRun();
    const stopQuiet = traceAgent(quiet.agent, { tracer });
    await collect(quiet.agent.run('secret input'));
    stopQuiet();
    const contentKeys = [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ];
    for (const span of spans()) for (const key of contentKeys) expect(span.attributes[key], span.name).toBeUndefined();
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain('secret input');

    exporter.reset();
    const loud = twoCallRun();
    const stopLoud = traceAgent(loud.agent, { tracer, recordContent: true });
    await collect(loud.agent.run('secret input'));
    stopLoud();
    expect(JSON.parse(String(named('invoke_agent')[0]?.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'secret input' }] },
    ]);
    const [asked, answered] = named('chat');
    expect(JSON.parse(String(asked?.attributes['gen_ai.output.messages']))[0].parts).toEqual([
      { type: 'tool_call', id: 'c1', name: 'checkpoint', arguments: { step: 1 } },
      { type: 'tool_call', id: 'c2', name: 'checkpoint', arguments: { step: 2 } },
    ]);
    expect(JSON.parse(String(answered?.attributes['gen_ai.output.messages']))[0]).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', content: 'all done' }],
      finish_reason: 'stop',
    });
    expect(named('execute_tool').map((span) => span.attributes['gen_ai.tool.call.arguments'])).toEqual([
      '{"step":1}',
      '{"step":2}',
    ]);
    expect(named('execute_tool').map((span) => span.attributes['gen_ai.tool.call.result'])).toEqual([
      'step 1 complete',
      'step 2 complete',
    ]);
  });

  it('marks a failed tool call with error status, and the run goes on', async () => {
    const client = new ScriptedClient([toolTurn('x1', 'explode', {}), textTurn('recovered')]);
    const { agent } = makeAgent(client, [() => new FailingTool()], { maxTurns: 3 });
    const stop = traceAgent(agent, { tracer });
    await collect(agent.run('try it'));
    stop();
    const [tool] = named('execute_tool');
    expect(tool?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(tool?.status.message).toContain('the fuse was lit');
    expect(tool?.attributes['error.type']).toBe('tool_error');
    expect(named('invoke_agent')[0]?.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('ends every span of a run stopped by its budget, the run span with the stop reason as error type', async () => {
    const client = new ScriptedClient([
      toolTurn('a', 'checkpoint', { step: 1 }),
      toolTurn('b', 'checkpoint', { step: 2 }),
    ]);
    const { agent } = makeAgent(client, [(config) => new CheckpointTool(config)], {
      budget: new Budget({ maxTurns: 1 }),
    });
    const stop = traceAgent(agent, { tracer });
    const events: AgentEvent[] = await collect(agent.run('loop'));
    expect(events.at(-1)?.type).toBe('agent_error');
    const [run] = named('invoke_agent');
    expect(run?.status.code).toBe(SpanStatusCode.ERROR);
    expect(run?.attributes['error.type']).toBe('turn_budget');
    // Nothing was left open: unsubscribing now adds no span.
    const count = spans().length;
    stop();
    expect(spans()).toHaveLength(count);
  });

  it('marks each guardrail verdict as an event on the run span, and a tripwire as error type guardrail', async () => {
    const client = new ScriptedClient([toolTurn('a', 'checkpoint', { step: 1 }), textTurn('never')]);
    const { agent } = makeAgent(client, [(config) => new CheckpointTool(config)], {
      guardrails: { toolResult: [{ name: 'stop-all', check: () => ({ tripwire: 'no' }) }] },
    });
    traceAgent(agent, { tracer });
    await collect(agent.run('go'));
    const [run] = named('invoke_agent');
    expect(run?.attributes['error.type']).toBe('guardrail');
    expect(run?.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'agent_harness.guardrail',
        {
          'agent_harness.guardrail.name': 'stop-all',
          'agent_harness.guardrail.stage': 'toolResult',
          'agent_harness.guardrail.outcome': 'tripwire',
          'gen_ai.tool.call.id': 'a',
        },
      ],
    ]);
  });

  it('fails the open chat span of a model error with the reason', async () => {
    const client = new ScriptedClient([[StreamEvent.error('upstream exploded', '500')]]);
    const { agent } = makeAgent(client, [], {});
    const stop = traceAgent(agent, { tracer, model: 'm' });
    await collect(agent.run('hello'));
    stop();
    const [chat] = named('chat');
    expect(chat?.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat?.attributes['error.type']).toBe('model_error');
    expect(named('invoke_agent')[0]?.attributes['error.type']).toBe('model_error');
  });

  it('nests the run under the given context, and under the active span by default', async () => {
    const outer = tracer.startSpan('request');
    const given = twoCallRun();
    const stopGiven = traceAgent(given.agent, { tracer, context: trace.setSpan(context.active(), outer) });
    await collect(given.agent.run('go'));
    stopGiven();
    outer.end();
    expect(parentOf(named('invoke_agent')[0] as ReadableSpan)).toBe(outer.spanContext().spanId);
  });

  it('takes model and provider from the client when it says them, and ends spans still open on unsubscribe', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = Object.assign(
      new ScriptedClient([
        async function* () {
          await gate;
          yield* textTurn('late');
        },
      ]),
      { model: 'claude-test', provider: 'anthropic' },
    );
    const { agent } = makeAgent(client, [], {});
    const stop = traceAgent(agent, { tracer });
    const run = collect(agent.run('wait'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    const [chat] = named('chat');
    expect(chat?.name).toBe('chat claude-test');
    expect(chat?.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect(chat?.attributes['error.type']).toBe('unsubscribed');
    expect(named('invoke_agent')).toHaveLength(1);
    release();
    await run;
    expect(spans()).toHaveLength(2); // nothing after unsubscribing
  });

  it('ends a run suspended for approval without error, saying so, and its allowed call span too', async () => {
    const made = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'look'])]);
    const stop = traceAgent(made.agent, { tracer });
    const events = await runDeciding(made.agent.run('go'), () => setTimeout(() => made.agent.suspend(), 10));
    stop();
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    const [run] = named('invoke_agent');
    expect(run?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(run?.attributes['agent_harness.stop_reason']).toBe('suspended');
    expect(named('execute_tool').map((span) => span.name)).toEqual(['execute_tool look']);
  });

  it('refuses an agent or options it cannot trace with, at the call', () => {
    const { agent } = twoCallRun();
    for (const options of [{}, { tracer: 5 }, { tracer: {} }, { trace: 'oops' }, null])
      expect(() => traceAgent(agent, options as never)).toThrow(
        expect.objectContaining({ reason: 'invalid_argument' }),
      );
    expect(() => traceAgent({} as never, { tracer })).toThrow(expect.objectContaining({ reason: 'invalid_argument' }));
    expect(() => traceAgent(agent, { tracer, model: 7 as never })).toThrow(/options\.model must be a string/);
  });

  it("gives each run's span that run's usage: not the session's, and also when the run fails", async () => {
    const client = new ScriptedClient([
      textTurn('first', usage(100, 10)),
      toolTurn('a', 'checkpoint', { step: 1 }, usage(7, 3)),
      toolTurn('b', 'checkpoint', { step: 2 }, usage(7, 3)),
    ]);
    const { agent } = makeAgent(client, [(config) => new CheckpointTool(config)], {
      budget: new Budget({ maxTurns: 2 }),
    });
    const stop = traceAgent(agent, { tracer });
    await collect(agent.run('one'));
    const events = await collect(agent.run('two'));
    stop();
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'turn_budget' } });
    const runs = named('invoke_agent');
    expect(
      runs.map((span) => [span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']]),
    ).toEqual([
      [100, 10],
      [14, 6], // two requests before the turn limit stopped it
    ]);
  });
});
