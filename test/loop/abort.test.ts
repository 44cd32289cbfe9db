import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { Agent, Config, ScriptedClient, Session, StreamEvent, ToolKind, ToolRegistry } from '../../src/index.js';
import { collect, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { hangingTool } from '../support/tools.js';
import { tempWorkspace } from '../support/workspace.js';

function setup(turns: ConstructorParameters<typeof ScriptedClient>[0], seen: { aborted?: string }, budget = {}) {
  const config = new Config({ cwd: tempWorkspace(), budget });
  const registry = new ToolRegistry(config).register(hangingTool(seen, ToolKind.SHELL));
  const session = new Session(config, { client: new ScriptedClient(turns), registry });
  return { config, session };
}

function toolResults(session: Session) {
  return session.messages.filter((message) => message.role === 'tool');
}

describe('Agent.abort and the wall-clock budget', () => {
  it('abort() reaches a hung tool through its signal, answers the call once, and ends the run as aborted', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {})], seen);
    const agent = new Agent(config, { session });
    agent.events.subscribe((event) => {
      if (event.type === 'tool_call_start') setTimeout(() => agent.abort('user pressed stop'), 5);
    });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toEqual({ type: 'agent_error', data: { reason: 'aborted', message: 'user pressed stop' } });
    expect(seen.aborted).toContain('user pressed stop');
    expect(toolResults(session)).toEqual([
      { role: 'tool', callId: 'h1', content: "Error: Tool 'hang' was aborted: user pressed stop" },
    ]);
    expect(events.filter((event) => event.type === 'tool_call_complete')).toHaveLength(1);
  });

  it('an aborted RunOptions.signal ends the run as aborted while the model streams', async () => {
    const controller = new AbortController();
    const slowTurn = async function* () {
      yield StreamEvent.textDelta('thinking');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      yield StreamEvent.messageComplete();
    };
    const config = new Config({ cwd: tempWorkspace() });
    const session = new Session(config, { client: new ScriptedClient([() => slowTurn()]) });
    const agent = new Agent(config, { session });
    agent.events.subscribe((event) => {
      if (event.type === 'text_delta') controller.abort('caller gave up');
    });
    const events = await collect(agent.run('go', { signal: controller.signal }));
    const last = events.at(-1);
    expect(last?.type === 'agent_error' && last.data.reason).toBe('aborted');
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('the time budget aborts a hung tool via SimulatedClock, with one error result, reason time_budget', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {})], seen, { maxWallClockMs: 1_000 });
    const clock = new SimulatedClock();
    const agent = new Agent(config, { session, clock });
    agent.events.subscribe((event) => {
      if (event.type === 'tool_call_start') setTimeout(() => clock.increment(1_000), 0);
    });
    const events = await collect(agent.run('go'));
    const last = events.at(-1);
    expect(last?.type === 'agent_error' && last.data.reason).toBe('time_budget');
    expect(seen.aborted).toContain('time budget');
    expect(toolResults(session)).toHaveLength(1);
    expect(toolResults(session)[0]?.content).toMatch(/^Error: Tool 'hang' was aborted: time budget/);
  });

  it('the time budget also works on real timers', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {}, usage(1, 1))], seen, { maxWallClockMs: 30 });
    const events = await collect(new Agent(config, { session }).run('go'));
    const last = events.at(-1);
    expect(last?.type === 'agent_error' && last.data.reason).toBe('time_budget');
  });

  it('breaking out of the loop at a tool_call_start aborts the run and that tool through its signal', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {}), textTurn('never')], seen);
    const agent = new Agent(config, { session });
    for await (const event of agent.run('go')) {
      if (event.type === 'tool_call_start') break; // the tool starts as its announcement reaches the loop
    }
    expect(seen.aborted).toBe('the caller stopped reading the run');
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    expect(toolResults(session)).toEqual([
      { role: 'tool', callId: 'h1', content: "Error: Tool 'hang' was aborted: the caller stopped reading the run" },
    ]);
    expect(agent.state).toBeUndefined();
  });

  it('a reader that lingers on a tool_call_start, then aborts, reaches that running tool through its signal', async () => {
    const seen = { started: [] as string[], abortedCalls: [] as string[] };
    const config = new Config({ cwd: tempWorkspace() });
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'h1', name: 'hang', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'h2', name: 'hang', arguments: {} }),
        StreamEvent.messageComplete(),
      ],
    ]);
    const session = new Session(config, { client, registry: new ToolRegistry(config).register(hangingTool(seen)) });
    const agent = new Agent(config, { session });
    for await (const event of agent.run('go')) {
      if (event.type !== 'tool_call_start' || event.data.callId !== 'h2') continue;
      await new Promise((resolve) => setTimeout(resolve, 5));
      agent.abort('user pressed stop');
    }
    expect(seen.started).toEqual(['h1', 'h2']);
    expect(seen.abortedCalls).toEqual(['h1', 'h2']);
    expect(toolResults(session).map((message) => message.content)).toEqual([
      "Error: Tool 'hang' was aborted: user pressed stop",
      "Error: Tool 'hang' was aborted: user pressed stop",
    ]);
  });

  it('return() while a read waits on a running tool: the tool sees its signal, the read gets its result', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {}), textTurn('never')], seen);
    const agent = new Agent(config, { session });
    const events = agent.run('go');
    while ((await events.next()).value?.type !== 'tool_call_start') {}
    const waiting = events.next(); // the tool runs (it hangs), so this read waits
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen.aborted).toBeUndefined();
    await events.return(undefined);
    expect(seen.aborted).toBe('the caller stopped reading the run');
    expect(await waiting).toMatchObject({ done: false, value: { type: 'tool_call_complete' } });
    expect(toolResults(session)).toEqual([
      { role: 'tool', callId: 'h1', content: "Error: Tool 'hang' was aborted: the caller stopped reading the run" },
    ]);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
  });

  it('a subscriber that stops the run at a tool_call_start reaches that started tool through its signal', async () => {
    const seen: { aborted?: string } = {};
    const { config, session } = setup([toolTurn('h1', 'hang', {}), textTurn('never')], seen);
    const agent = new Agent(config, { session });
    const events = agent.run('go');
    let stopped: Promise<unknown> | undefined;
    agent.events.subscribe(async (event) => {
      if (event.type !== 'tool_call_start') return;
      stopped = events.return(undefined);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const read = await collect(events); // ends when the subscriber stops the stream
    await stopped;
    // A tool starts as its announcement is published: every subscriber sees a started tool.
    expect(read.map((event) => event.type).slice(0, 2)).toEqual(['agent_start', 'tool_call_start']);
    expect(seen.aborted).toBe('the caller stopped reading the run');
    expect(toolResults(session)).toEqual([
      { role: 'tool', callId: 'h1', content: "Error: Tool 'hang' was aborted: the caller stopped reading the run" },
    ]);
    expect(agent.state).toBeUndefined();
  });

  it('a subscriber may abort the run on agent_start: it ends as aborted before the model is asked', async () => {
    const client = new ScriptedClient([textTurn('never')]);
    const config = new Config({ cwd: tempWorkspace() });
    const agent = new Agent(config, { session: new Session(config, { client }) });
    agent.events.subscribe((event) => {
      if (event.type === 'agent_start') agent.abort('changed my mind');
    });
    const events = await collect(agent.run('go'));
    expect(events.map((event) => event.type)).toEqual(['agent_start', 'agent_error']);
    expect(events.at(-1)).toEqual({ type: 'agent_error', data: { reason: 'aborted', message: 'changed my mind' } });
    expect(client.calls).toBe(0);
  });
});
