import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TokenUsage } from '../../src/core/usage.js';
import {
  Agent,
  type AgentEvent,
  agentTool,
  Budget,
  Config,
  defineTool,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { propertyRuns } from '../../src/testing/index.js';
import { callChunk, doneChunk, drain, FnClient, textChunk, use } from '../support/runs.js';

/** Every request of every agent in the tree goes to one client, which records each request's usage. */
class TreeClient extends FnClient {
  readonly spent: TokenUsage[] = [];
  constructor(next: (n: number) => { usage: TokenUsage; delegate: boolean }) {
    super((n) => {
      const { usage, delegate } = next(n);
      this.spent.push(usage);
      return delegate
        ? [callChunk(`c${n}`, 'self', { task: `step ${n}` }), doneChunk(usage)]
        : [textChunk(`answer ${n}`), doneChunk(usage)];
    });
  }
}

/** An agent whose only tool is an agent tool running the same agent: it can delegate to itself. */
function selfDelegating(client: TreeClient, childConfig: Config): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    agentTool({ name: 'self', description: 'Delegates to itself.', config: childConfig, client, registry }),
  );
  return registry;
}

/** The child's tools: one that does nothing, so the child can go on calling it. */
const noopTools = () =>
  new ToolRegistry().register(
    defineTool({
      name: 'noop',
      description: 'Does nothing.',
      kind: ToolKind.READ,
      schema: z.object({}),
      execute: () => ToolResult.success('ok'),
    }),
  );

const TURN = use(10, 5); // 15 tokens, 0.00002 at the default rates

const endOf = (events: AgentEvent[]) => events.at(-1);

describe('sub-agents: the tree spends inside the root budget', () => {
  it('stops an agent that keeps delegating to itself once the tree has used the root’s tokens', async () => {
    const client = new TreeClient(() => ({ usage: TURN, delegate: true }));
    const childConfig = new Config({ maxAgentDepth: 3, maxTurns: 5 });
    const config = new Config({ maxAgentDepth: 3, budget: { maxTotalTokens: 100 } });
    const agent = new Agent(config, { client, registry: selfDelegating(client, childConfig) });
    const end = endOf(await drain(agent.run('go')));
    expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'token_budget' } });
    // 7 requests use 105 tokens: the seventh crosses the root's 100, and nothing runs after it.
    expect(client.calls).toBe(7);
  });

  it('bounds a child configured with a larger budget by what its parent has left (tokens)', async () => {
    let n = 0;
    const client = new TreeClient(() => ({ usage: TURN, delegate: n++ === 0 }));
    // The child never answers on its own budget: it has 10,000 tokens and 50 turns.
    const childClient = new FnClient((k) => [callChunk(`x${k}`, 'noop', {}), doneChunk(TURN)]);
    const child = agentTool({
      name: 'self',
      description: 'A big spender.',
      config: new Config({ budget: { maxTotalTokens: 10_000, maxTurns: 50 } }),
      client: childClient,
      registry: noopTools(),
    });
    const config = new Config({ budget: { maxTotalTokens: 100 } });
    const agent = new Agent(config, { client, registry: new ToolRegistry().register(child) });
    const events = await drain(agent.run('go'));
    // The parent's 15, then the child's 6 requests (90): 105 > 100, so the child stops before a 7th.
    expect(childClient.calls).toBe(6);
    const result = events.find((event) => event.type === 'tool_call_complete');
    expect(result?.data).toMatchObject({ success: false });
    expect(JSON.stringify(result?.data)).toContain('token_budget: token budget exceeded');
    expect(endOf(events)).toMatchObject({ type: 'agent_error', data: { reason: 'token_budget' } });
    expect(agent.session.totalUsage.totalTokens).toBe(105);
  });

  it('bounds the child by its parent’s cost budget too, and its turns by the turns its parent has left', async () => {
    const childClient = new FnClient((k) => [callChunk(`x${k}`, 'noop', {}), doneChunk(TURN)]);
    const child = (config: Config) =>
      agentTool({ name: 'self', description: 'A big spender.', config, client: childClient, registry: noopTools() });
    const parentClient = () => new TreeClient((n) => ({ usage: TURN, delegate: n === 1 }));

    const rich = new Config({ budget: { maxCost: 1, maxTurns: 50 } });
    const byCost = new Agent(new Config({ budget: { maxCost: 0.0001 } }), {
      client: parentClient(),
      registry: new ToolRegistry().register(child(rich)),
    });
    await drain(byCost.run('go'));
    // 5 requests cost exactly 0.0001 (not over), a 6th goes over: the parent's 1 and the child's 5.
    expect(childClient.calls).toBe(5);

    const turnsBefore = childClient.calls;
    const byTurns = new Agent(new Config({ maxTurns: 4 }), {
      client: parentClient(),
      registry: new ToolRegistry().register(child(rich)),
    });
    const events = await drain(byTurns.run('go'));
    // The parent used 1 of its 4 turns when it delegated: the child may make 3.
    expect(childClient.calls - turnsBefore).toBe(3);
    expect(JSON.stringify(events)).toContain("turn_budget: turn budget reached: 'agent' had 3 turns left");
  });

  it('keeps every tree of self-delegating agents within one request of the root’s token and cost budgets', async () => {
    const property = fc.asyncProperty(
      fc.record({
        maxTotalTokens: fc.integer({ min: 1, max: 400 }),
        maxCost: fc.double({ min: 0.00001, max: 0.001, noNaN: true }),
        childTokens: fc.integer({ min: 1, max: 100_000 }),
        requests: fc.array(fc.record({ prompt: fc.nat(40), completion: fc.nat(20), delegate: fc.boolean() }), {
          minLength: 1,
          maxLength: 60,
        }),
      }),
      async ({ maxTotalTokens, maxCost, childTokens, requests }) => {
        const client = new TreeClient((n) => {
          const step = requests[(n - 1) % requests.length] ?? { prompt: 1, completion: 1, delegate: false };
          return { usage: use(step.prompt, step.completion), delegate: step.delegate };
        });
        const childConfig = new Config({ maxAgentDepth: 3, budget: { maxTotalTokens: childTokens, maxTurns: 6 } });
        const config = new Config({ maxAgentDepth: 3, budget: { maxTotalTokens, maxCost, maxTurns: 6 } });
        const agent = new Agent(config, { client, registry: selfDelegating(client, childConfig) });
        await drain(agent.run('go'));
        const before = client.spent.slice(0, -1); // every request but the last
        const tokens = before.reduce((sum, usage) => sum + usage.totalTokens, 0);
        const budget = new Budget({ maxCost });
        const cost = before.reduce((sum, usage) => sum + budget.usageCost(usage), 0);
        expect(tokens).toBeLessThanOrEqual(maxTotalTokens);
        expect(cost).toBeLessThanOrEqual(maxCost * (1 + 1e-9));
      },
    );
    for (const run of propertyRuns({ default: 40, deep: 400 })) await fc.assert(property, run);
  });
});
