import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  EventBus,
  type Message,
  ScriptedClient,
  Session,
  StreamEvent,
  type ToolInvocation,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain, typesOf, use, workspace } from '../support/runs.js';

function waitForAbort({ signal }: ToolInvocation<Record<string, never>>): Promise<string> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve('ignored late output')));
}

function hangingAgent(options: { toolTimeoutMs?: number } = {}) {
  const seenSignals: AbortSignal[] = [];
  const hang = defineTool({
    name: 'hang',
    description: 'Waits until aborted.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: (invocation) => {
      seenSignals.push(invocation.signal);
      return waitForAbort(invocation);
    },
  });
  const config = new Config({ cwd: workspace(), ...options });
  const registry = new ToolRegistry(config);
  registry.register(hang);
  const client = new ScriptedClient([
    [
      StreamEvent.toolCallComplete({ callId: 'h1', name: 'hang', arguments: {} }),
      StreamEvent.toolCallComplete({ callId: 'h2', name: 'hang', arguments: {} }),
      StreamEvent.messageComplete(use(3, 1)),
    ],
    [StreamEvent.textDelta('after'), StreamEvent.messageComplete()],
  ]);
  const session = new Session(config, { client, registry });
  return { agent: new Agent(config, { session }), session, client, seenSignals };
}

function toolResults(messages: readonly Message[]) {
  return messages.filter((m) => m.role === 'tool');
}

describe('contract §7 agent.abort()', () => {
  it('ends a run with reason aborted; every pending call gets exactly one error result', async () => {
    const { agent, session, client, seenSignals } = hangingAgent();
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type === 'tool_call_start' && event.data.callId === 'h2') agent.abort('user pressed stop');
    }
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'aborted' } });
    expect(events.filter((e) => e.type === 'agent_error' || e.type === 'agent_end')).toHaveLength(1);
    expect(seenSignals.length).toBeGreaterThan(0);
    expect(seenSignals.every((s) => s.aborted)).toBe(true);
    const results = toolResults(session.messages);
    expect(results.map((m) => (m.role === 'tool' ? m.callId : ''))).toEqual(['h1', 'h2']);
    expect(results.every((m) => String(m.content).startsWith('Error: '))).toBe(true);
    expect(client.calls).toBe(1);
  });

  it('aborting the run signal ends the run with reason aborted', async () => {
    const { agent, session } = hangingAgent();
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool_call_start') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'aborted' } });
    expect(toolResults(session.messages)).toHaveLength(2);
  });

  it('aborting while the model streams leaves no half-written assistant message', async () => {
    const client = {
      async *chatCompletion(_m: readonly Message[], _t?: unknown, options?: { signal?: AbortSignal }) {
        yield StreamEvent.textDelta('partial ');
        await new Promise<void>((resolve) => options?.signal?.addEventListener('abort', () => resolve()));
        yield StreamEvent.textDelta('never seen');
        yield StreamEvent.messageComplete();
      },
    };
    const config = new Config({ cwd: workspace() });
    const session = new Session(config, { client });
    const agent = new Agent(config, { session });
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type === 'text_delta') agent.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'aborted' } });
    expect(session.messages.some((m) => m.role === 'assistant')).toBe(false);
  });
});

describe('contract §6/§5 tool timeout in a run', () => {
  it('a hung tool times out into an error result and the run goes on', async () => {
    const { agent, session } = hangingAgent({ toolTimeoutMs: 5 });
    const events = await drain(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'after' } });
    const results = toolResults(session.messages);
    expect(results).toHaveLength(2);
    expect(results.every((m) => String(m.content).startsWith('Error: '))).toBe(true);
    const completes = events.filter((e) => e.type === 'tool_call_complete');
    expect(completes.map((e) => e.data)).toMatchObject([{ success: false }, { success: false }]);
  });
});

describe('contract §7 model_error', () => {
  function runWith(client: { chatCompletion: (...args: never[]) => AsyncIterable<StreamEvent> }) {
    const config = new Config({ cwd: workspace() });
    const session = new Session(config, { client: client as never });
    return { session, run: drain(new Agent(config, { session }).run('go')) };
  }

  it('a stream that throws mid-turn ends the run with model_error and no half-written assistant message', async () => {
    const { session, run } = runWith({
      async *chatCompletion() {
        yield StreamEvent.textDelta('half an ans');
        yield StreamEvent.toolCallComplete({ callId: 'c1', name: 'x', arguments: {} });
        throw new Error('connection reset');
      },
    });
    const events = await run;
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    const last = events.at(-1);
    expect(last?.type === 'agent_error' ? last.data.message : '').toContain('connection reset');
    expect(session.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(session.journal.some((e) => e.type === 'assistant_message')).toBe(false);
  });

  it('an error event in the stream ends the run with model_error', async () => {
    const { session, run } = runWith({
      async *chatCompletion() {
        yield StreamEvent.textDelta('so far');
        yield StreamEvent.error('overloaded');
        yield StreamEvent.textDelta('ignored');
        yield StreamEvent.messageComplete();
      },
    });
    const events = await run;
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    expect(session.messages.some((m) => m.role === 'assistant')).toBe(false);
    expect(events.some((e) => e.type === 'agent_end')).toBe(false);
  });

  it('a client that throws before yielding anything is also model_error (run() never throws)', async () => {
    const { run } = runWith({
      // biome-ignore lint/correctness/useYield: the point is a generator that fails before its first chunk
      async *chatCompletion() {
        throw new Error('401 unauthorized');
      },
    });
    const events = await run;
    expect(typesOf(events)).toEqual(['agent_start', 'agent_error']);
    expect(events.at(-1)).toMatchObject({ data: { reason: 'model_error' } });
  });

  it('a ScriptedClient run past its script is a clear model_error', async () => {
    const config = new Config({ cwd: workspace() });
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'c1', name: 'nope', arguments: {} }), StreamEvent.messageComplete()],
    ]);
    const session = new Session(config, { client });
    const events = await drain(new Agent(config, { session }).run('go'));
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    expect(last?.type === 'agent_error' ? last.data.message : '').toMatch(/script/i);
    expect(client.requests).toHaveLength(2);
  });
});

describe('contract §2 ScriptedClient', () => {
  it('takes event lists or functions (messages, tools) → events, and records each request', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'noop',
        description: 'Nothing.',
        kind: ToolKind.READ,
        schema: z.object({}),
        execute: () => 'ok',
      }),
    );
    let sawTools: readonly { name: string }[] = [];
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'n1', name: 'noop', arguments: {} }), StreamEvent.messageComplete()],
      (messages, tools) => {
        sawTools = tools;
        return [StreamEvent.textDelta(`saw ${messages.length} messages`), StreamEvent.messageComplete()];
      },
    ]);
    const session = new Session(config, { client, registry });
    const events = await drain(new Agent(config, { session }).run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'saw 3 messages' } });
    expect(sawTools.map((t) => t.name)).toEqual(['noop']);
    expect(client.requests).toHaveLength(2);
    expect(client.requests[0]?.messages).toEqual([{ role: 'user', content: 'go' }]);
  });
});

describe('contract §5 run() never throws for what a tool or subscriber does', () => {
  it('a tool returning garbage and a throwing subscriber still end with one terminal event', async () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'weird',
        description: 'Returns a number.',
        kind: ToolKind.READ,
        schema: z.object({}),
        execute: () => 42 as unknown as string,
      }),
    );
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'w', name: 'weird', arguments: {} }), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('ok'), StreamEvent.messageComplete()],
    ]);
    const agent = new Agent(config, { session: new Session(config, { client, registry }) });
    const original = console.error;
    console.error = () => {};
    try {
      agent.events.subscribe(() => {
        throw new Error('subscriber blew up');
      });
      const events = await drain(agent.run('go'));
      expect(events.filter((e) => e.type === 'agent_end' || e.type === 'agent_error')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('agent_end');
    } finally {
      console.error = original;
    }
  });

  it('breaking out of the for-await loop stops the run and leaves the agent reusable', async () => {
    const { agent, session } = hangingAgent();
    for await (const event of agent.run('go')) {
      if (event.type === 'tool_call_start') break;
    }
    expect(toolResults(session.messages)).toHaveLength(2);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
  });
});

describe('a subscriber that never finishes cannot keep a run from ending', () => {
  const answering = () => {
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    const turn = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete()];
    const session = new Session(config, { client: new ScriptedClient([turn('done'), turn('again')]), registry });
    const failures: unknown[] = [];
    const events = new EventBus({ stopGraceMs: 30, onSubscriberError: (error) => failures.push(error) });
    return { agent: new Agent(config, { session, events }), failures };
  };

  it('stuck on agent_end: the reader still gets agent_end, the timeout is reported, and the agent runs again', async () => {
    const { agent, failures } = answering();
    agent.events.subscribe((event) => (event.type === 'agent_end' ? new Promise<void>(() => {}) : undefined));
    const first = await drain(agent.run('one'));
    expect(first.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(failures).toEqual([expect.objectContaining({ reason: 'subscriber_timeout', eventType: 'agent_end' })]);
    const second = await drain(agent.run('two'));
    expect(second.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'again' } });
  });
});

describe('run options are checked before the run takes the agent', () => {
  it.each([
    ['null options', null],
    ['a signal that is not an AbortSignal', { signal: 's' }],
  ])('%s: invalid_argument, and the agent is still free', async (_, options) => {
    const config = new Config({ cwd: workspace() });
    const client = new ScriptedClient([[StreamEvent.textDelta('ok'), StreamEvent.messageComplete()]]);
    const agent = new Agent(config, { session: new Session(config, { client, registry: new ToolRegistry(config) }) });
    expect(() => agent.run('x', options as never)).toThrow(expect.objectContaining({ reason: 'invalid_argument' }));
    expect(agent.session.journal).toEqual([]);
    const events = await drain(agent.run('x'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'ok' } });
  });
});
