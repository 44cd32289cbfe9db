import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import type { InvokeOptions } from '../../src/tools/index.js';
import { collect, makeAgent, textTurn } from '../support/fixtures.js';
import { timedTool } from '../support/tools.js';
import { tempWorkspace } from '../support/workspace.js';

function callsTurn(calls: [string, string][]) {
  return [
    ...calls.map(([name, id]) => StreamEvent.toolCallComplete({ callId: id, name, arguments: { id } })),
    StreamEvent.messageComplete(),
  ];
}

async function runCalls(calls: [string, string][], log: string[]) {
  const client = new ScriptedClient([callsTurn(calls), textTurn('ok')]);
  const { agent, session } = makeAgent(
    client,
    [
      () => timedTool('look', ToolKind.READ, log, 15),
      () => timedTool('write', ToolKind.WRITE, log, 5),
      () => timedTool('fetch', ToolKind.NETWORK, log, 5, true),
    ],
    { cwd: tempWorkspace() },
  );
  const events = await collect(agent.run('go'));
  return { events, session };
}

describe('Agent tool execution', () => {
  it('runs read tools of one turn concurrently and appends results in the order asked', async () => {
    const log: string[] = [];
    const { session } = await runCalls(
      [
        ['look', 'a'],
        ['look', 'b'],
        ['look', 'c'],
      ],
      log,
    );
    expect(log.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
    const tools = session.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.callId)).toEqual(['a', 'b', 'c']);
    expect(tools.map((message) => message.content)).toEqual(['done a', 'done b', 'done c']);
  });

  it('runs other kinds one at a time, and never beside a read batch', async () => {
    const log: string[] = [];
    await runCalls(
      [
        ['look', 'r1'],
        ['write', 'w1'],
        ['write', 'w2'],
        ['look', 'r2'],
      ],
      log,
    );
    expect(log).toEqual(['start r1', 'end r1', 'start w1', 'end w1', 'start w2', 'end w2', 'start r2', 'end r2']);
  });

  it('lets a tool that says it is concurrency-safe run beside read tools', async () => {
    const log: string[] = [];
    await runCalls(
      [
        ['fetch', 'f1'],
        ['look', 'r1'],
      ],
      log,
    );
    expect(log.slice(0, 2)).toEqual(['start f1', 'start r1']);
  });

  it('answers an unknown tool and non-JSON arguments with error observations and keeps looping', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'u', name: 'nope', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'j', name: 'look', arguments: '{"id": ' }),
        StreamEvent.messageComplete(),
      ],
      textTurn('recovered'),
    ]);
    const { agent, session } = makeAgent(client, [() => timedTool('look', ToolKind.READ, [], 1)], {
      cwd: tempWorkspace(),
    });
    const events = await collect(agent.run('go'));
    const tools = session.messages.filter((message) => message.role === 'tool');
    expect(tools[0]?.content).toBe("Error: Unknown tool 'nope'. Available tools: look");
    expect(tools[1]?.content).toMatch(/^Error: Invalid parameters: arguments are not valid JSON/);
    expect(events.at(-1)?.type).toBe('agent_end');
  });

  it('goes on from a synchronous tool at once when nothing paces the run: its result is announced before the next microtask', async () => {
    const client = new ScriptedClient([callsTurn([['sum', 's1']]), textTurn('done')]);
    const sum = () =>
      defineTool({
        name: 'sum',
        description: '',
        kind: ToolKind.READ,
        schema: z.object({ id: z.string() }),
        execute: () => '3',
      });
    const { agent } = makeAgent(client, [sum], { cwd: tempWorkspace() });
    const order: string[] = [];
    agent.events.subscribe((event) => {
      if (event.type === 'tool_call_start') {
        order.push('start');
        queueMicrotask(() => order.push('next microtask'));
      }
      if (event.type === 'tool_call_complete') order.push(`complete ${event.data.output}`);
    });
    const ended = new Promise<void>((resolve) => {
      agent.events.subscribe((event) => {
        if (event.type === 'agent_end') resolve();
      });
    });
    void agent.run('go'); // nobody reads it, so nothing paces the run
    await ended;
    expect(order).toEqual(['start', 'complete 3', 'next microtask']);
  });

  it('announces concurrent results in the order the model asked for them, whatever order they finish in', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'slow', name: 'wait', arguments: { ms: 30 } }),
        StreamEvent.toolCallComplete({ callId: 'fast', name: 'wait', arguments: { ms: 1 } }),
        StreamEvent.toolCallComplete({ callId: 'mid', name: 'wait', arguments: { ms: 10 } }),
        StreamEvent.messageComplete(),
      ],
      textTurn('done'),
    ]);
    const finished: string[] = [];
    const wait = () =>
      defineTool({
        name: 'wait',
        description: '',
        kind: ToolKind.READ,
        schema: z.object({ ms: z.number() }),
        execute: ({ params, callId }) =>
          new Promise<string>((resolve) =>
            setTimeout(() => {
              finished.push(callId);
              resolve(`waited ${params.ms}`);
            }, params.ms),
          ),
      });
    const { agent, session } = makeAgent(client, [wait], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    expect(finished).toEqual(['fast', 'mid', 'slow']); // they did run concurrently
    const completed = events.flatMap((event) => (event.type === 'tool_call_complete' ? [event.data.callId] : []));
    expect(completed).toEqual(['slow', 'fast', 'mid']);
    const tools = session.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.callId)).toEqual(completed);
  });

  it('calls a registry subclass that overrides invoke (a permission check), also for synchronous tools', async () => {
    class Guarded extends ToolRegistry {
      override invoke(name: string, params: unknown, options?: InvokeOptions): Promise<ToolResult> {
        return name === 'sum' ? Promise.resolve(ToolResult.error('denied')) : super.invoke(name, params, options);
      }
    }
    const config = new Config({ cwd: tempWorkspace() });
    const registry = new Guarded(config).register(
      defineTool({ name: 'sum', description: '', kind: ToolKind.READ, schema: z.object({}), execute: () => '3' }),
    );
    const client = new ScriptedClient([callsTurn([['sum', 's1']]), textTurn('done')]);
    const agent = new Agent(config, { session: new Session(config, { client, registry }) });
    await collect(agent.run('go'));
    expect(agent.session.messages.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', callId: 's1', content: 'Error: denied' },
    ]);
  });
});
