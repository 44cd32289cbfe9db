import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Budget,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { Checkpoint, callChunk, doneChunk, drain, FnClient, textChunk, use, workspace } from '../support/runs.js';

describe('contract §7 Budget (seed cell "Budget checks")', () => {
  it('turns stop on reaching the maximum; cost stops only when it exceeds the maximum', () => {
    const budget = new Budget({ maxTurns: 3, maxCost: 0.00005 });
    expect(budget.stopReason(1, use(30, 10))).toBeNull();
    expect(budget.stopReason(3, use(30, 10))).toBe('turn_budget');
    expect(budget.stopReason(1, use(40, 10))).toBe('cost_budget');
  });

  it('default prices are 0.001 per 1k input and 0.002 per 1k output tokens', () => {
    const budget = new Budget({});
    expect(budget.inputRatePer1k).toBe(0.001);
    expect(budget.outputRatePer1k).toBe(0.002);
    expect(budget.usageCost(use(1000, 0))).toBeCloseTo(0.001, 12);
    expect(budget.usageCost(use(0, 1000))).toBeCloseTo(0.002, 12);
    expect(budget.usageCost(use(30, 10))).toBeCloseTo(0.00005, 12);
  });

  it('the budget may set its own prices', () => {
    const budget = new Budget({ inputRatePer1k: 0.01, outputRatePer1k: 0.03 });
    expect(budget.usageCost(use(1000, 1000))).toBeCloseTo(0.04, 12);
  });

  it('tokens stop only when the total exceeds the maximum', () => {
    const budget = new Budget({ maxTotalTokens: 40 });
    expect(budget.stopReason(1, use(30, 10))).toBeNull();
    expect(budget.stopReason(1, use(30, 11))).toBe('token_budget');
  });

  it('wall-clock stops once the time is used up', () => {
    const budget = new Budget({ maxWallClockMs: 100 });
    expect(budget.stopReason(1, use(0, 0), 99)).toBeNull();
    expect(budget.stopReason(1, use(0, 0), 100)).toBe('time_budget');
  });

  it('checks are monotone: more turns, tokens or time never un-stop a run', () => {
    const budget = new Budget({ maxTurns: 5, maxCost: 0.001, maxTotalTokens: 500, maxWallClockMs: 1000 });
    for (const [turns, p, c, ms] of [
      [5, 0, 0, 0],
      [1, 2000, 0, 0],
      [1, 400, 101, 0],
      [1, 0, 0, 1000],
    ] as const) {
      const stopped = budget.stopReason(turns, use(p, c), ms);
      expect(stopped).not.toBeNull();
      expect(budget.stopReason(turns + 3, use(p * 2 + 1, c * 2 + 1), ms * 2 + 1)).not.toBeNull();
    }
  });

  it('no limits means no stop', () => {
    expect(new Budget({}).stopReason(1_000, use(1e6, 1e6), 1e9)).toBeNull();
  });
});

describe('contract §7 Config and budget', () => {
  it('maxTurns defaults to 10 and fills budget.maxTurns', () => {
    expect(new Config({ cwd: workspace() }).budget.maxTurns).toBe(10);
    expect(new Config({ cwd: workspace(), maxTurns: 4 }).budget.maxTurns).toBe(4);
    expect(new Config({ cwd: workspace(), maxTurns: 4, budget: { maxCost: 1 } }).budget.maxTurns).toBe(4);
  });

  it('takes budget as options or as a Budget', () => {
    const fromOptions = new Config({ cwd: workspace(), budget: { maxCost: 0.5, maxTotalTokens: 100 } });
    expect(fromOptions.budget).toBeInstanceOf(Budget);
    expect(fromOptions.budget.maxCost).toBe(0.5);
    const fromBudget = new Config({ cwd: workspace(), budget: new Budget({ maxTotalTokens: 7 }) });
    expect(fromBudget.budget.maxTotalTokens).toBe(7);
    expect(fromBudget.budget.maxTurns).toBe(10);
  });

  it('an explicit budget.maxTurns is not overridden by a missing Config.maxTurns', () => {
    expect(new Config({ cwd: workspace(), budget: { maxTurns: 2 } }).budget.maxTurns).toBe(2);
  });
});

function progress(maxTurns: number) {
  const client = new FnClient((n) =>
    n <= 2
      ? [callChunk(`call-step-${n}`, 'checkpoint', { step: n }), doneChunk(use(5, 2))]
      : [textChunk('complete'), doneChunk()],
  );
  const config = new Config({ cwd: workspace(), maxTurns });
  const registry = new ToolRegistry(config);
  registry.register(new Checkpoint(config));
  const agent = new Agent(config, { session: new Session(config, { client, registry }) });
  return { client, agent };
}

function terminal(events: AgentEvent[]) {
  const last = events.at(-1);
  return last?.type === 'agent_end'
    ? { ok: true, reason: null }
    : { ok: false, reason: last?.type === 'agent_error' ? last.data.reason : '?' };
}

describe('contract §5/§7 seed turn curve', () => {
  it('2 tool turns + 1 final turn: turn_budget at 1 and 2, success at 3 and 4; client calls 1, 2, 3, 3', async () => {
    const rows = [];
    for (const limit of [1, 2, 3, 4]) {
      const { client, agent } = progress(limit);
      const events = await drain(agent.run('make progress'));
      rows.push({
        calls: client.calls,
        ...terminal(events),
        errors: events.filter((e) => e.type === 'agent_error').length,
      });
    }
    expect(rows.map((r) => r.ok)).toEqual([false, false, true, true]);
    expect(rows.map((r) => r.calls)).toEqual([1, 2, 3, 3]);
    expect(rows.map((r) => r.reason)).toEqual(['turn_budget', 'turn_budget', null, null]);
    expect(rows.map((r) => r.errors)).toEqual([1, 1, 0, 0]);
  });

  it('stopping while still acting is an agent_error, never a fake answer', async () => {
    const { agent } = progress(1);
    const events = await drain(agent.run('make progress'));
    expect(events.some((e) => e.type === 'agent_end')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'turn_budget' } });
  });
});

function toolLoop(budget: ConstructorParameters<typeof Config>[0]) {
  const client = new FnClient((n) => [callChunk(`c${n}`, 'checkpoint', { step: n }), doneChunk(use(300, 100))]);
  const config = new Config({ cwd: workspace(), ...budget });
  const registry = new ToolRegistry(config);
  registry.register(new Checkpoint(config));
  const session = new Session(config, { client, registry });
  return { client, session, agent: new Agent(config, { session }) };
}

describe('contract §7 hard limits in a run', () => {
  it('cost_budget once the cost exceeds maxCost', async () => {
    // each turn costs (300*0.001 + 100*0.002)/1000 = 0.0005
    const { client, agent } = toolLoop({ budget: { maxCost: 0.001 } });
    const events = await drain(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'cost_budget' } });
    expect(client.calls).toBe(3);
  });

  it('token_budget once total tokens exceed maxTotalTokens', async () => {
    const { client, agent } = toolLoop({ budget: { maxTotalTokens: 800 } });
    const events = await drain(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'token_budget' } });
    expect(client.calls).toBe(3);
  });

  it('the stop is recorded in the journal with its reason', async () => {
    const { agent, session } = toolLoop({ maxTurns: 2 });
    await drain(agent.run('go'));
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'turn_budget' });
  });

  it('time_budget aborts a running tool through its signal; the call still gets one error result', async () => {
    let sawAbort = false;
    const hang = defineTool({
      name: 'hang',
      description: 'Waits until aborted.',
      kind: ToolKind.OTHER,
      schema: z.object({}),
      execute: ({ signal }) =>
        new Promise<string>((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve('stopped');
          });
        }),
    });
    const config = new Config({ cwd: workspace(), budget: { maxWallClockMs: 50 } });
    const registry = new ToolRegistry(config);
    registry.register(hang);
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'h1', name: 'hang', arguments: {} }), StreamEvent.messageComplete()],
    ]);
    const session = new Session(config, { client, registry });
    const events = await drain(new Agent(config, { session }).run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
    expect(sawAbort).toBe(true);
    const results = session.messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ role: 'tool', callId: 'h1' });
    expect(String(results[0]?.content).startsWith('Error: ')).toBe(true);
    expect(client.calls).toBe(1);
  });

  it('time_budget aborts an in-flight model stream through its signal', async () => {
    let aborted = false;
    const client = {
      async *chatCompletion(_messages: unknown, _tools?: unknown, options?: { signal?: AbortSignal }) {
        yield StreamEvent.textDelta('thinking');
        await new Promise<void>((resolve) => {
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        });
        yield StreamEvent.textDelta(' more');
        yield StreamEvent.messageComplete();
      },
    };
    const config = new Config({ cwd: workspace(), budget: { maxWallClockMs: 50 } });
    const session = new Session(config, { client });
    const events = await drain(new Agent(config, { session }).run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
    expect(aborted).toBe(true);
    expect(session.messages.filter((m) => m.role === 'assistant')).toEqual([]);
  });
});

describe('contract §7 soft limit', () => {
  it('emits budget_warning, adds a harness-authored message and withholds tools on the next request', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'checkpoint', arguments: { step: 1 } }),
        StreamEvent.messageComplete(),
      ],
      [
        StreamEvent.toolCallComplete({ callId: 'c2', name: 'checkpoint', arguments: { step: 2 } }),
        StreamEvent.messageComplete(),
      ],
      [StreamEvent.textDelta('final, briefly'), StreamEvent.messageComplete()],
    ]);
    const config = new Config({ cwd: workspace(), budget: { maxTurns: 4, softLimitRatio: 0.5 } });
    const registry = new ToolRegistry(config);
    registry.register(new Checkpoint(config));
    const agent = new Agent(config, { session: new Session(config, { client, registry }) });
    const events = await drain(agent.run('go'));
    expect(events.filter((e) => e.type === 'budget_warning')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'final, briefly' } });
    expect(client.requests[0]?.tools.length).toBe(1);
    expect(client.requests[1]?.tools.length).toBe(1);
    expect(client.requests[2]?.tools ?? []).toEqual([]);
    const third = client.requests[2]?.messages ?? [];
    const note = third.at(-1);
    expect(note?.role).toBe('user');
    expect(note?.content).toMatch(/final answer/i);
    const warningAt = events.findIndex((e) => e.type === 'budget_warning');
    const lastToolAt = events.findLastIndex((e) => e.type === 'tool_call_complete');
    expect(warningAt).toBeGreaterThan(lastToolAt);
  });

  it('also fires on the token budget, naming it', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'checkpoint', arguments: { step: 1 } }),
        StreamEvent.messageComplete(use(50, 10)),
      ],
      [StreamEvent.textDelta('wrapping up'), StreamEvent.messageComplete(use(5, 5))],
    ]);
    const config = new Config({ cwd: workspace(), budget: { maxTotalTokens: 100, softLimitRatio: 0.5 } });
    const registry = new ToolRegistry(config);
    registry.register(new Checkpoint(config));
    const events = await drain(new Agent(config, { session: new Session(config, { client, registry }) }).run('go'));
    const warning = events.find((e) => e.type === 'budget_warning');
    expect(warning?.data).toMatchObject({ budget: 'tokens' });
    expect(client.requests[1]?.tools ?? []).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'wrapping up' } });
  });

  it('is off by default: no warning and tools stay available', async () => {
    const { client, agent } = progress(3);
    const events = await drain(agent.run('go'));
    expect(events.some((e) => e.type === 'budget_warning')).toBe(false);
    expect(client.seen.every((s) => Array.isArray(s.tools) && s.tools.length === 1)).toBe(true);
  });
});
