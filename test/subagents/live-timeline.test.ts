import { describe, expect, it } from 'vitest';
import { Agent, Config, openStore, Session } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { TimelineBuilder } from '../../src/inspector/timeline-builder.js';
import type { TimelineStep } from '../../src/inspector.js';
import { readSessionTree } from '../../src/subagents.js';
import { drain } from '../support/runs.js';
import { delegationClients, LEAD_ANSWER, leadRegistry, leadSession } from './support/delegation.js';
import { snapshotMidDelegation } from './support/mid-delegation.js';

const calls = (steps: readonly TimelineStep[]) => steps.filter((step) => step.kind === 'tool_call');

/** What a timeline shows, nested, without what only a live run knows (tool durations). */
type Shown = [string, string, string | undefined, string | undefined, Shown[] | undefined];
const shown = (steps: readonly TimelineStep[]): Shown[] =>
  steps.map((step) => [
    step.kind,
    step.title,
    step.tool?.status,
    step.tool?.result ?? step.text,
    step.tool?.children === undefined ? undefined : shown(step.tool.children),
  ]);

describe('the live inspector of nested runs', () => {
  it("shows each child agent's steps under its call while the child runs, three levels deep", async () => {
    const clients = delegationClients();
    const config = new Config();
    let during: readonly TimelineStep[] = [];
    const registry = leadRegistry(clients, (n) => {
      // Item n's effect runs three levels down: the feed already shows it under both calls.
      if (n === 1) during = feed.snapshot().steps;
    });
    const agent = new Agent(config, { client: clients.lead, registry });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'lead');
    const updates: TimelineStep[] = [];
    feed.subscribe((steps) => updates.push(...steps));
    const events = await drain(agent.run('write the report'));
    detach();
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: LEAD_ANSWER } });

    const [researcher] = calls(during);
    expect(researcher?.tool).toMatchObject({ name: 'researcher', status: 'running', childSessionId: 'agent.t1.r1' });
    const [analyst] = calls(researcher?.tool?.children ?? []);
    expect(analyst?.tool).toMatchObject({ name: 'analyst', status: 'running', childSessionId: 'agent.t1.r1.t1.a1' });
    const [effect] = calls(analyst?.tool?.children ?? []);
    expect(effect?.tool).toMatchObject({ name: 'effect', status: 'running' });
    // The call's step was sent again as its child went on: the page saw the child grow.
    const sizes = updates.filter((step) => step.tool?.callId === 'r1').map((step) => step.tool?.children?.length ?? 0);
    expect(sizes.length).toBeGreaterThan(5);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));

    const [first, second] = calls(feed.snapshot().steps);
    expect(first?.tool?.children?.at(-1)).toMatchObject({
      kind: 'answer',
      text: 'research 1: analysis 1: effect 1 done',
    });
    expect(second?.tool?.children?.at(-1)).toMatchObject({
      kind: 'answer',
      text: 'research 2: analysis 2: effect 2 done',
    });
  });

  it('the live timeline is the stored one: the same nested steps, read from each child’s own log', async () => {
    const store = await openStore('memory:');
    const config = new Config();
    const session = leadSession(store, 'lead', config);
    const agent = new Agent(config, { session });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'lead');
    await drain(agent.run('write the report'));
    detach();
    await session.close();
    const tree = await readSessionTree(store, 'lead');
    const saved = new TimelineBuilder({ childJournal: (id) => tree.journals.get(id) });
    for (const entry of tree.journals.get('lead') ?? []) saved.addEntry(entry);
    expect(shown(feed.snapshot().steps)).toEqual(shown(saved.steps));
    // Live runs know how long each call of a child took.
    const [first] = calls(feed.snapshot().steps);
    expect(calls(first?.tool?.children ?? [])[0]?.tool?.durationMs).toBeGreaterThanOrEqual(0);
    await store.close();
  });

  it('a resumed lead without a store: its ended child from the kept journal, its resumed one from where it was, then live', async () => {
    const { snapshot } = await snapshotMidDelegation();
    const clients = delegationClients();
    const config = new Config();
    const session = Session.fromJSON(snapshot, config, {
      client: clients.lead,
      registry: leadRegistry(clients, () => {}),
    });
    const agent = new Agent(config, { session });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'lead');
    await drain(agent.resume());
    detach();
    const [first, second] = calls(feed.snapshot().steps);
    // Item 1's researcher ended before the crash and did not run again: its journal shows.
    expect(clients.researcher.calls).toBe(1);
    expect(first?.tool?.children?.at(-1)).toMatchObject({
      kind: 'answer',
      text: 'research 1: analysis 1: effect 1 done',
    });
    // Item 2's researcher shows its steps before the crash (its task, its analyst call), then
    // the rest as it resumed, down to its analyst's interrupted effect.
    const researcher = second?.tool?.children ?? [];
    expect(researcher[0]).toMatchObject({ kind: 'user', text: 'research item 2' });
    expect(researcher.at(-1)?.text).toMatch(/^research 2: analysis 2: Error: interrupted/);
    const [analyst] = calls(researcher);
    expect(calls(analyst?.tool?.children ?? []).map((step) => [step.tool?.name, step.tool?.status])).toEqual([
      ['effect', 'error'],
    ]);
  });

  it("a resumed child's timeline starts with what it journaled before, then goes on live", async () => {
    const builder = new TimelineBuilder();
    const child = builder.childTimeline('p.t1.c1');
    child.addEntry({ type: 'user_message', content: 'the task' });
    // Not shown before the call's start is in the parent's timeline; picked up by it.
    expect(builder.childChanged('p.t1.c1')).toEqual([]);
    builder.addEntry({ type: 'turn_start' });
    builder.addEntry({
      type: 'assistant_message',
      content: '',
      toolCalls: [{ callId: 'c1', name: 'helper', arguments: { task: 'the task' } }],
    });
    builder.addEntry({ type: 'transition', from: 'awaitingModel', to: 'executingTools', event: 'MODEL_TURN' });
    const [started] = builder.addEntry({ type: 'tool_started', callId: 'c1', childSessionId: 'p.t1.c1' });
    expect(started?.tool?.children?.map((step) => step.kind)).toEqual(['user']);
    child.addEntry({ type: 'turn_start' });
    const [grown] = builder.childChanged('p.t1.c1');
    expect(grown?.tool?.children?.map((step) => step.kind)).toEqual(['user', 'turn']);
    expect(builder.childTimeline('p.t1.c1')).toBe(child);
  });
});
