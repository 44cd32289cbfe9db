import { describe, expect, it, vi } from 'vitest';
import { Agent, AgentEvent, EventBus, ScriptedClient, StreamEvent, type StreamRecord } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

describe('Agent events', () => {
  it('streams text deltas before text_complete and announces each tool before it completes', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.textDelta('Checking '),
        StreamEvent.textDelta('now. '),
        StreamEvent.toolCallComplete({ callId: 'a', name: 'checkpoint', arguments: { step: 1 } }),
        StreamEvent.toolCallComplete({ callId: 'b', name: 'checkpoint', arguments: { step: 2 } }),
        StreamEvent.messageComplete(usage(3, 4)),
      ],
      textTurn('all done'),
    ]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    const types = events.map((event) => event.type);
    expect(types).toEqual([
      'agent_start',
      'text_delta',
      'text_delta',
      'text_complete',
      // A synchronous call settles as it starts, and the next starts once that is delivered.
      'tool_call_start',
      'tool_call_complete',
      'tool_call_start',
      'tool_call_complete',
      'text_delta',
      'text_complete',
      'agent_end',
    ]);
    expect(events[3]).toEqual({ type: 'text_complete', data: { content: 'Checking now. ' } });
    expect(events.at(-1)).toEqual({
      type: 'agent_end',
      data: { response: 'all done', usage: usage(8, 6), turnCount: 2 },
    });
  });

  it('gives subscribers the same events, in the same order, as run() yields', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('ok')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const seen: AgentEvent[] = [];
    agent.events.subscribe((event) => {
      seen.push(event);
    });
    const yielded = await collect(agent.run('go'));
    expect(seen).toEqual(yielded);
  });

  it('applies backpressure: the next model request waits for a slow subscriber', async () => {
    const order: string[] = [];
    const client = new ScriptedClient([
      toolTurn('c1', 'checkpoint', { step: 1 }),
      () => {
        order.push('request 2');
        return textTurn('ok');
      },
    ]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    agent.events.subscribe(async (event) => {
      if (event.type !== 'tool_call_complete') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('subscriber done');
    });
    await collect(agent.run('go'));
    expect(order).toEqual(['subscriber done', 'request 2']);
  });

  it('contains a throwing subscriber: the run completes and later subscribers see every event', async () => {
    const onSubscriberError = vi.fn();
    const client = new ScriptedClient([textTurn('fine')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const bus = new EventBus({ onSubscriberError });
    const agentWithBus = new Agent(agent.config, { session: agent.session, events: bus });
    bus.subscribe(() => {
      throw new Error('boom');
    });
    const later: string[] = [];
    bus.subscribe((event) => {
      later.push(event.type);
    });
    const events = await collect(agentWithBus.run('go'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(later).toEqual(events.map((event) => event.type));
    expect(onSubscriberError).toHaveBeenCalledTimes(events.length);
  });

  it('publishes every transition and event on stream$ in order, with gapless seq numbers', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('ok')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const records: { seq: number; type: string }[] = [];
    const subscription = agent.stream$.subscribe((record) => {
      records.push({ seq: record.seq, type: record.entry.type });
    });
    await collect(agent.run('go'));
    subscription.unsubscribe();
    expect(records.map((record) => record.seq)).toEqual(records.map((_, i) => i));
    const transitions = agent.session.journal.filter((entry) => entry.type === 'transition');
    expect(records.filter((record) => record.type === 'transition')).toHaveLength(transitions.length);
    expect(records.at(-1)?.type).toBe('agent_end');
  });
});

describe('Agents sharing one EventBus', () => {
  it('each run yields only its own events, while subscribers see both runs', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe((event) => {
      if (event.type === 'agent_end') seen.push(event.data.response);
    });
    const one = makeAgent(
      new ScriptedClient([toolTurn('a1', 'checkpoint', { step: 1 }), textTurn('from one')]),
      [() => new CheckpointTool()],
      { cwd: tempWorkspace() },
    );
    const two = makeAgent(new ScriptedClient([textTurn('from two')]), [], { cwd: tempWorkspace() });
    const agentOne = new Agent(one.config, { session: one.session, events: bus });
    const agentTwo = new Agent(two.config, { session: two.session, events: bus });
    const [eventsOne, eventsTwo] = await Promise.all([collect(agentOne.run('1')), collect(agentTwo.run('2'))]);
    expect(eventsOne.filter((event) => event.type === 'agent_start')).toEqual([
      { type: 'agent_start', data: { input: '1' } },
    ]);
    expect(eventsOne.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'from one' } });
    expect(eventsTwo.map((event) => event.type)).toEqual(['agent_start', 'text_delta', 'text_complete', 'agent_end']);
    expect(eventsTwo.at(-1)).toMatchObject({ data: { response: 'from two' } });
    expect(seen.sort()).toEqual(['from one', 'from two']);
  });

  it('leaves out events others emit on the bus between its own, even while delivery is queued', async () => {
    const bus = new EventBus();
    const client = new ScriptedClient([
      toolTurn('a1', 'checkpoint', { step: 1 }),
      toolTurn('a2', 'checkpoint', { step: 2 }),
      textTurn('done'),
    ]);
    const { config, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const agent = new Agent(config, { session, events: bus });
    const foreign = AgentEvent.textDelta('not this run');
    // A slow subscriber makes the bus queue events; another emits a foreign event (the same
    // object each time) after each of the run's own, so own and foreign ones interleave.
    bus.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
    });
    bus.subscribe((event) => {
      if (event !== foreign) void bus.emit(foreign);
    });
    const streamed: AgentEvent[] = [];
    agent.stream$.subscribe((record) => {
      if (record.journalIndex === undefined) streamed.push(record.entry as AgentEvent);
    });
    const events = await collect(agent.run('go'));
    expect(events).not.toContain(foreign);
    expect(events.map((event) => event.type)).toContain('tool_call_complete');
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(streamed).toEqual(events);
  });

  it("gives each agent's stream$ only its own session's entries and its own events", async () => {
    const bus = new EventBus();
    const one = makeAgent(
      new ScriptedClient([toolTurn('a1', 'checkpoint', { step: 1 }), textTurn('from one')]),
      [() => new CheckpointTool()],
      { cwd: tempWorkspace() },
    );
    const two = makeAgent(new ScriptedClient([textTurn('from two')]), [], { cwd: tempWorkspace() });
    const agentOne = new Agent(one.config, { session: one.session, events: bus });
    const agentTwo = new Agent(two.config, { session: two.session, events: bus });
    const recordsOne: StreamRecord[] = [];
    const recordsTwo: StreamRecord[] = [];
    agentOne.stream$.subscribe((record) => recordsOne.push(record));
    agentTwo.stream$.subscribe((record) => recordsTwo.push(record));
    let all = 0;
    bus.stream$.subscribe(() => all++);
    await Promise.all([collect(agentOne.run('1')), collect(agentTwo.run('2'))]);
    for (const [records, session] of [
      [recordsOne, one.session],
      [recordsTwo, two.session],
    ] as const) {
      const logged = records.filter((record) => record.journalIndex !== undefined);
      expect(logged.map((record) => record.entry)).toEqual(session.journal);
      expect(logged.map((record) => record.journalIndex)).toEqual(session.journal.map((_, i) => i));
    }
    const startsOne = recordsOne.filter((record) => record.entry.type === 'agent_start');
    expect(startsOne.map((record) => (record.entry as AgentEvent<'agent_start'>).data.input)).toEqual(['1']);
    expect(recordsOne.length + recordsTwo.length).toBe(all);
  });

  it('freezes tool arguments: a subscriber cannot change what the tool gets or what is recorded', async () => {
    const client = new ScriptedClient([
      toolTurn('c1', 'checkpoint', { step: 1, nested: { deep: 'x' } }),
      textTurn('done'),
    ]);
    const failures: unknown[] = [];
    const bus = new EventBus({ onSubscriberError: (error) => failures.push(error) });
    const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const tampering = new Agent(agent.config, { session, events: bus });
    bus.subscribe((event) => {
      if (event.type !== 'tool_call_start') return;
      const args = event.data.arguments as { step: number; nested: { deep: string } };
      args.nested.deep = 'changed';
    });
    bus.subscribe((event) => {
      if (event.type === 'tool_call_start') (event.data.arguments as { step: number }).step = 99;
    });
    await collect(tampering.run('go'));
    expect(failures).toHaveLength(2);
    expect(failures.every((error) => error instanceof TypeError)).toBe(true);
    const tool = session.messages.find((message) => message.role === 'tool');
    expect(tool?.content).toBe('step 1 complete');
    const recorded = session.journal.find((entry) => entry.type === 'assistant_message');
    expect(JSON.stringify(recorded)).toContain('"deep":"x"');
  });
});
