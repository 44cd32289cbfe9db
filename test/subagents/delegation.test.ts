import { describe, expect, it } from 'vitest';
import { Agent, Config, openStore, Session } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { drain } from '../support/runs.js';
import { delegationClients, LEAD_ANSWER, leadRegistry, TURN_USAGE } from './support/delegation.js';

const tokens = (turns: number) => turns * TURN_USAGE.totalTokens;

describe('agentTool: a three-level delegation', () => {
  it('runs lead → researcher → analyst, each in its own stored session, and answers with the children’s answers', async () => {
    const store = await openStore('memory:');
    const clients = delegationClients();
    const effects: number[] = [];
    const config = new Config();
    const session = new Session(config, {
      client: clients.lead,
      registry: leadRegistry(clients, (n) => void effects.push(n)),
      store,
      id: 'lead',
    });
    const events = await drain(new Agent(config, { session }).run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: LEAD_ANSWER } });
    expect(effects).toEqual([1, 2]);
    expect(clients.lead.calls).toBe(3);
    expect(clients.researcher.calls).toBe(4);
    expect(clients.analyst.calls).toBe(4);
    // Usage: the lead's 3 turns, each researcher's 2, each analyst's 2, all counted in the lead.
    expect(session.totalUsage.totalTokens).toBe(tokens(3 + 4 + 4));
    await session.close();

    const ids = (await store.list()).map((summary) => summary.id);
    expect(ids).toEqual(['lead', 'lead.t1.r1', 'lead.t1.r1.t1.a1', 'lead.t2.r2', 'lead.t2.r2.t1.a1']);
    const started = session.journal.filter((entry) => entry.type === 'tool_started');
    expect(started).toEqual([
      { type: 'tool_started', callId: 'r1', childSessionId: 'lead.t1.r1' },
      { type: 'tool_started', callId: 'r2', childSessionId: 'lead.t2.r2' },
    ]);
    const results = session.journal.filter((entry) => entry.type === 'tool_result');
    expect(results[0]).toMatchObject({ callId: 'r1', usage: { totalTokens: tokens(4) } });
    const analyst = await Session.load(store, 'lead.t1.r1.t1.a1');
    expect(clients.analyst.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'You analyse one item.' });
    expect(analyst.journal.at(-1)).toEqual({ type: 'agent_end', response: 'analysis 1: effect 1 done' });
    await analyst.close();
    expect(checkLoopInvariants(session.journal)).toEqual([]);
    await store.close();
  });

  it('runs without a store too: the children live in memory', async () => {
    const clients = delegationClients();
    const config = new Config();
    const agent = new Agent(config, { client: clients.lead, registry: leadRegistry(clients, () => {}) });
    const depths: number[] = [];
    agent.children$.subscribe((child) => {
      depths.push(child.depth);
      child.agent.children$.subscribe((grandchild) => depths.push(grandchild.depth));
    });
    const events = await drain(agent.run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: LEAD_ANSWER } });
    expect(depths).toEqual([1, 2, 1, 2]);
  });

  it('bounds the nesting: a call past maxAgentDepth answers Error: agent_depth naming the depth', async () => {
    const clients = delegationClients();
    const config = new Config();
    const registry = leadRegistry(clients, () => {}, { researcherConfig: new Config({ maxAgentDepth: 1 }) });
    const agent = new Agent(config, { client: clients.lead, registry });
    const events = await drain(agent.run('write the report'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(clients.analyst.calls).toBe(0);
    const researcherSaw = clients.researcher.requests[1]?.messages.at(-1);
    expect(researcherSaw).toMatchObject({
      role: 'tool',
      content: "Error: agent_depth: agent 'analyst' would run at depth 2, deeper than maxAgentDepth 1",
    });
  });

  it("a child's budget stop is its parent's tool error: Error: <reason>: <message>", async () => {
    const clients = delegationClients();
    const registry = leadRegistry(clients, () => {}, { analystConfig: new Config({ maxTurns: 1 }) });
    const agent = new Agent(new Config(), { client: clients.lead, registry });
    await drain(agent.run('write the report'));
    const researcherSaw = clients.researcher.requests[1]?.messages.at(-1);
    expect(researcherSaw?.content).toMatch(/^Error: turn_budget: turn budget reached: 1 of 1 turns/);
  });

  it("the children's usage counts into the parent's budget: the parent stops on it", async () => {
    const clients = delegationClients();
    // The lead's own first turn (15) plus the first researcher's tree (60) exceed 70.
    const config = new Config({ budget: { maxTotalTokens: 70 } });
    const agent = new Agent(config, { client: clients.lead, registry: leadRegistry(clients, () => {}) });
    const events = await drain(agent.run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'token_budget' } });
    expect(clients.researcher.calls).toBe(2);
    expect(agent.session.totalUsage.totalTokens).toBe(tokens(5));
  });

  it("the parent's abort reaches the child: both end, the child's session records aborted", async () => {
    const store = await openStore('memory:');
    const clients = delegationClients();
    const config = new Config();
    let agent: Agent | undefined;
    const hang = (_n: number, { signal }: { signal: AbortSignal }) =>
      new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
        agent?.abort('stop now');
      });
    const session = new Session(config, {
      client: clients.lead,
      registry: leadRegistry(clients, hang),
      store,
      id: 'p',
    });
    agent = new Agent(config, { session });
    const events = await drain(agent.run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'aborted' } });
    await session.close();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the children wind down
    const child = await store.read('p.t1.r1');
    expect(child.entries.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    const grandchild = await store.read('p.t1.r1.t1.a1');
    expect(grandchild.entries.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    await store.close();
  });

  it("the parent's wall-clock limit reaches the child", async () => {
    const clients = delegationClients();
    const config = new Config({ budget: { maxWallClockMs: 100 } });
    let childSignal: AbortSignal | undefined;
    const hang = (_n: number, { signal }: { signal: AbortSignal }) =>
      new Promise<void>((resolve) => {
        childSignal = signal;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    const agent = new Agent(config, { client: clients.lead, registry: leadRegistry(clients, hang) });
    const events = await drain(agent.run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
    expect(childSignal?.aborted).toBe(true);
  });

  it('refuses a bad depth or maxAgentDepth, and an agent tool without a run', async () => {
    expect(() => new Agent(new Config(), { depth: -1 })).toThrow(/options.depth must be a whole number/);
    expect(() => new Config({ maxAgentDepth: 0 })).toThrow(/maxAgentDepth must be a positive integer/);
    const clients = delegationClients();
    const registry = leadRegistry(clients, () => {});
    const result = await registry.invoke('researcher', { task: 'research item 1' });
    expect(result).toEqual({
      success: false,
      error: "agent tool 'researcher' runs a child agent: call it through an Agent",
    });
    expect(clients.researcher.calls).toBe(0);
  });
});
