import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { z } from 'zod';
import { Agent, Config, defineTool, ScriptedClient, Session, StreamEvent, ToolKind } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function checkpointAgent() {
  const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('complete')]);
  return makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
}

describe("run()'s event stream", () => {
  it('is its own async iterator', () => {
    const { agent } = checkpointAgent();
    const events = agent.run('go');
    expect(events[Symbol.asyncIterator]()).toBe(events);
    return collect(events);
  });

  it('ends only once the run has released the agent, so the next run can start at once', async () => {
    const client = new ScriptedClient([textTurn('one'), textTurn('two')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const first = agent.run('a');
    const types: string[] = [];
    for (let step = await first.next(); !step.done; step = await first.next()) types.push(step.value.type);
    expect(types.at(-1)).toBe('agent_end');
    expect(agent.state).toBeUndefined();
    expect((await first.next()).done).toBe(true); // and stays ended
    const second = await collect(agent.run('b'));
    expect(second.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'two' } });
  });

  it('return() before reading ends the run as aborted and resolves once the agent is free', async () => {
    const { agent, session } = checkpointAgent();
    const events = agent.run('go');
    await expect(events.return(undefined)).resolves.toEqual({ value: undefined, done: true });
    expect(agent.state).toBeUndefined();
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    expect((await events.next()).done).toBe(true);
  });

  it('throw() ends the run as return() does and rejects with the error it was given', async () => {
    const { agent, session } = checkpointAgent();
    const events = agent.run('go');
    await events.next();
    const error = new Error('consumer failed');
    await expect(events.throw(error)).rejects.toBe(error);
    expect(agent.state).toBeUndefined();
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
  });

  it('yields the events that were queued while nobody was reading, in order', async () => {
    const { agent } = checkpointAgent();
    const events = agent.run('go');
    await new Promise((resolve) => setTimeout(resolve, 20)); // the run finishes unread
    expect(agent.state).toBeUndefined();
    const types = (await collect(events)).map((event) => event.type);
    expect(types).toEqual([
      'agent_start',
      'tool_call_start',
      'tool_call_complete',
      'text_delta',
      'text_complete',
      'agent_end',
    ]);
  });

  it('a subscriber added after run(), before the first next(), sees every event run() yields', async () => {
    const { agent } = checkpointAgent();
    const events = agent.run('go');
    const seen: string[] = [];
    agent.events.subscribe((event) => {
      seen.push(event.type);
    });
    const yielded = (await collect(events)).map((event) => event.type);
    expect(yielded[0]).toBe('agent_start');
    expect(seen).toEqual(yielded);
  });

  it('answers next() calls made before the earlier ones resolved, in order, as a generator does', async () => {
    const { agent } = checkpointAgent();
    const events = agent.run('go');
    const firstFour = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(firstFour.map((step) => (step.done ? 'done' : step.value.type))).toEqual([
      'agent_start',
      'tool_call_start',
      'tool_call_complete',
      'text_delta',
    ]);
    const rest = (await collect(events)).map((event) => event.type);
    expect(rest).toEqual(['text_complete', 'agent_end']);
  });

  it('return(value) resolves with that value, as a generator does', async () => {
    const { agent } = checkpointAgent();
    const events = agent.run('go');
    await expect(events.return(undefined)).resolves.toEqual({ value: undefined, done: true });
    expect(Object.prototype.toString.call(events)).toBe('[object AsyncGenerator]');
  });

  it('ends with internal_error, not a hang, when starting the run throws (an inspect observer that fails)', async () => {
    const client = new ScriptedClient([textTurn('never')]);
    const config = new Config({ cwd: tempWorkspace() });
    const inspect = (event: InspectionEvent) => {
      if (event.type === '@xstate.snapshot') throw new Error('inspector broke');
    };
    const agent = new Agent(config, { session: new Session(config, { client }), inspect });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'internal_error' } });
    expect(events.at(-1)?.type === 'agent_error' && events.at(-1)).toBeTruthy();
    expect(agent.state).toBeUndefined();
  });
});

describe("run() paces the loop as a generator's body", () => {
  /** An agent whose model asks for one batch of concurrent `note` calls, then answers. */
  /** A `note` tool that records in `ran` each call's id as it starts. */
  function noteTool(ran: string[], async = false) {
    return () =>
      defineTool({
        name: 'note',
        description: '',
        kind: ToolKind.READ,
        schema: z.object({ id: z.string() }),
        execute: ({ params }) => {
          ran.push(params.id); // when the tool starts
          const output = `noted ${params.id}`;
          // synchronous: the fastest path the loop has; asynchronous: still running when the next is announced
          return async ? new Promise<string>((resolve) => setTimeout(() => resolve(output), 5)) : output;
        },
      });
  }

  function batchAgent(ids: readonly string[], { async = false } = {}) {
    const ran: string[] = [];
    const note = noteTool(ran, async);
    const calls = ids.map((id) => StreamEvent.toolCallComplete({ callId: id, name: 'note', arguments: { id } }));
    const client = new ScriptedClient([[...calls, StreamEvent.messageComplete()], textTurn('done')]);
    return { ...makeAgent(client, [note], { cwd: tempWorkspace() }), client, ran };
  }
  const twoCallAgent = () => batchAgent(['c1', 'c2']);

  for (const async of [false, true]) {
    const kind = async ? 'asynchronous' : 'synchronous';
    it(`at each tool_call_start of a batch, that tool has started and no later one (${kind} tools)`, async () => {
      const { agent, ran } = batchAgent(['c1', 'c2', 'c3'], { async });
      const startedAt: Record<string, string[]> = {};
      for await (const event of agent.run('go')) {
        if (event.type === 'tool_call_start') startedAt[event.data.callId] = [...ran];
      }
      expect(startedAt).toEqual({ c1: ['c1'], c2: ['c1', 'c2'], c3: ['c1', 'c2', 'c3'] });
    });

    it(`breaking at the first tool_call_start of a batch keeps the rest from starting (${kind} tools)`, async () => {
      const { agent, session, ran } = batchAgent(['c1', 'c2', 'c3'], { async });
      for await (const event of agent.run('go')) {
        if (event.type === 'tool_call_start') break;
      }
      expect(ran).toEqual(['c1']);
      expect(session.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
    });
  }

  it('breaking at the first tool_call_start: only that tool ran, the second did not, the model was not asked again', async () => {
    const { agent, session, client, ran } = twoCallAgent();
    for await (const event of agent.run('go')) {
      if (event.type === 'tool_call_start') break;
    }
    expect(ran).toEqual(['c1']); // a tool starts as its announcement reaches the reader
    expect(client.calls).toBe(1);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    expect(session.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'noted c1',
      "Error: Tool 'note' was aborted before it started: the caller stopped reading the run",
    ]);
  });

  it('the loop waits while the reader works on an event, and goes on when it asks for the next', async () => {
    const { agent, client, ran } = twoCallAgent();
    const events = agent.run('go');
    let step = await events.next();
    while (!step.done && step.value.type !== 'tool_call_start') step = await events.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual(['c1']);
    step = await events.next();
    expect(step.value).toMatchObject({ type: 'tool_call_complete', data: { callId: 'c1' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual(['c1']);
    step = await events.next();
    expect(step.value).toMatchObject({ type: 'tool_call_start', data: { callId: 'c2' } });
    expect(ran).toEqual(['c1', 'c2']);
    const rest = (await collect(events)).map((event) => event.type);
    expect(rest.at(-1)).toBe('agent_end');
    expect(client.calls).toBe(2);
  });

  it("deltas are not held: the model's stream is read on while the reader works on one, and nothing after them starts", async () => {
    const pulled: string[] = [];
    let requests = 0;
    const ran: string[] = [];
    const note = noteTool(ran);
    const turns = [
      [
        StreamEvent.textDelta('a'),
        StreamEvent.textDelta('b'),
        StreamEvent.textDelta('c'),
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'note', arguments: { id: 'c1' } }),
        StreamEvent.messageComplete(),
      ],
      textTurn('done'),
    ];
    const client = {
      async *chatCompletion() {
        const turn = turns[requests++] ?? [];
        for (const event of turn) {
          await new Promise((resolve) => setImmediate(resolve)); // as a network stream arrives
          pulled.push(event.type === 'text_delta' ? `delta ${JSON.stringify(event.textDelta)}` : event.type);
          yield event;
        }
      },
    };
    const { agent } = makeAgent(client, [note], { cwd: tempWorkspace() });
    const events = agent.run('go');
    let step = await events.next();
    while (!step.done && step.value.type !== 'text_delta') step = await events.next();
    expect(step.value).toMatchObject({ type: 'text_delta', data: { content: 'a' } });
    await new Promise((resolve) => setTimeout(resolve, 20)); // the reader works on the first delta
    expect(pulled.filter((line) => line.startsWith('delta'))).toHaveLength(3);
    expect(ran).toEqual([]); // what follows the deltas waits: no tool started, no second request
    expect(requests).toBe(1);
    const rest: string[] = [];
    for await (const event of events) {
      rest.push(event.type === 'text_delta' ? event.data.content : event.type);
    }
    expect(rest.slice(0, 4)).toEqual(['b', 'c', 'text_complete', 'tool_call_start']);
    expect(rest.at(-1)).toBe('agent_end');
    expect(ran).toEqual(['c1']);
  });

  it('a loop whose stream another caller return()s ends only once the run has released the agent', async () => {
    const { agent } = batchAgent(['c1'], { async: true });
    const events = agent.run('go');
    let stopping: Promise<unknown> | undefined;
    for await (const event of events) {
      if (event.type === 'tool_call_start') stopping = events.return(undefined); // say, a timeout elsewhere
    }
    expect(agent.state).toBeUndefined();
    await stopping;
  });

  it('a subscriber added while the reader works on an event sees every later event', async () => {
    const { agent } = twoCallAgent();
    const late: string[] = [];
    const read: string[] = [];
    for await (const event of agent.run('go')) {
      read.push(event.type);
      if (event.type === 'agent_start') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        agent.events.subscribe((seen) => {
          late.push(seen.type);
        });
      }
    }
    expect(late).toEqual(read.slice(1));
    expect(late).toContain('agent_end');
  });
});
