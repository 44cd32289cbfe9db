import { describe, expect, it } from 'vitest';
import { Agent, AgentEvent, Config, EventBus, ScriptedClient, Session, StreamEvent } from '../../src/index.js';
import { drain, typesOf, use } from '../support/runs.js';

describe('contract §4 EventBus.subscribe / emit', () => {
  it('runs subscribers in order, awaits async ones, and contains a throwing one (seed cell)', async () => {
    const seen: [string, string][] = [];
    const bus = new EventBus({ onSubscriberError: () => {} });
    bus.subscribe(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      seen.push(['slow', event.type]);
    });
    bus.subscribe((event) => {
      seen.push(['faulty', event.type]);
      throw new Error('subscriber failure');
    });
    bus.subscribe((event) => {
      seen.push(['final', event.type]);
    });
    await bus.emit(AgentEvent.textDelta('one'));
    await bus.emit(AgentEvent.textComplete('two'));
    expect(seen).toEqual([
      ['slow', 'text_delta'],
      ['faulty', 'text_delta'],
      ['final', 'text_delta'],
      ['slow', 'text_complete'],
      ['faulty', 'text_complete'],
      ['final', 'text_complete'],
    ]);
  });

  it('emit resolves only after every subscriber has finished with the event', async () => {
    const bus = new EventBus();
    let finished = false;
    bus.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      finished = true;
    });
    await bus.emit(AgentEvent.textDelta('x'));
    expect(finished).toBe(true);
  });

  it('keeps event order when emits are not awaited and a subscriber is slow', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe(async (event) => {
      if (event.type === 'text_delta') await new Promise((resolve) => setTimeout(resolve, 2));
      seen.push(event.type);
    });
    const first = bus.emit(AgentEvent.textDelta('a'));
    const second = bus.emit(AgentEvent.textComplete('a'));
    await Promise.all([first, second]);
    expect(seen).toEqual(['text_delta', 'text_complete']);
  });

  it('reports a rejected async subscriber and never rejects emit', async () => {
    const errors: unknown[] = [];
    const bus = new EventBus({ onSubscriberError: (error) => errors.push(error) });
    bus.subscribe(async () => {
      throw new Error('async failure');
    });
    await expect(bus.emit(AgentEvent.textDelta('x'))).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('subscribe returns a function that unsubscribes', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.subscribe((event) => {
      seen.push(event.type);
    });
    await bus.emit(AgentEvent.textDelta('a'));
    off();
    await bus.emit(AgentEvent.textDelta('b'));
    expect(seen).toEqual(['text_delta']);
  });
});

describe('contract §4 the agent stream', () => {
  function agentWith(turns: ConstructorParameters<typeof ScriptedClient>[0]) {
    const config = new Config({ cwd: process.cwd(), maxTurns: 3 });
    const session = new Session(config, { client: new ScriptedClient(turns) });
    return { agent: new Agent(config, { session }), session };
  }

  it('subscribers see the same events, in type and order, as run() yields', async () => {
    const { agent } = agentWith([
      [StreamEvent.textDelta('a'), StreamEvent.textDelta('b'), StreamEvent.messageComplete()],
    ]);
    const observed: AgentEvent[] = [];
    agent.events.subscribe((event) => {
      observed.push(event);
    });
    const yielded = await drain(agent.run('hi'));
    expect(typesOf(observed)).toEqual(typesOf(yielded));
    expect(typesOf(yielded)).toEqual(['agent_start', 'text_delta', 'text_delta', 'text_complete', 'agent_end']);
  });

  it('a slow subscriber slows the loop but the run still completes in order', async () => {
    const { agent } = agentWith([[StreamEvent.textDelta('a'), StreamEvent.messageComplete(use(1, 1))]]);
    const log: string[] = [];
    agent.events.subscribe(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(event.type);
    });
    const yielded = await drain(agent.run('hi'));
    expect(log).toEqual(typesOf(yielded));
  });

  it('a throwing subscriber neither breaks the run nor hides events from later subscribers', async () => {
    const config = new Config({ cwd: process.cwd() });
    const events = new EventBus({ onSubscriberError: () => {} });
    const session = new Session(config, {
      client: new ScriptedClient([[StreamEvent.textDelta('fine'), StreamEvent.messageComplete()]]),
    });
    const agent = new Agent(config, { session, events });
    agent.events.subscribe(() => {
      throw new Error('bad subscriber');
    });
    const later: string[] = [];
    agent.events.subscribe((event) => {
      later.push(event.type);
    });
    const yielded = await drain(agent.run('hi'));
    expect(yielded.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'fine' } });
    expect(later).toEqual(typesOf(yielded));
  });

  it('stream$ carries transitions {type: transition, from, to, event} and events, numbered without gaps', async () => {
    const { agent } = agentWith([
      [StreamEvent.toolCallComplete({ callId: 'c1', name: 'nope', arguments: {} }), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('ok'), StreamEvent.messageComplete()],
    ]);
    const records: { seq: number; entry: { type: string } }[] = [];
    const sub = agent.stream$.subscribe((record) => records.push(record));
    const yielded = await drain(agent.run('hi'));
    sub.unsubscribe();
    const first = records[0]?.seq ?? 0;
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => first + i));
    const transitions = records.map((r) => r.entry).filter((e) => e.type === 'transition');
    expect(transitions.length).toBeGreaterThan(0);
    for (const t of transitions) expect(Object.keys(t).sort()).toEqual(['event', 'from', 'to', 'type']);
    const events = records.filter((r) => !('journalIndex' in r)).map((r) => r.entry);
    expect(typesOf(events)).toEqual(typesOf(yielded));
    const logged = records.filter((r) => 'journalIndex' in r);
    expect(logged.map((r) => r.entry)).toEqual(agent.session.journal.slice(-logged.length));
  });
});
