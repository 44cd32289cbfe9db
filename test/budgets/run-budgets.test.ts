import { describe, expect, it } from 'vitest';
import { ScriptedClient, StreamEvent } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const steps = (n: number, u = usage(5, 2)) =>
  Array.from({ length: n }, (_, i) => toolTurn(`c${i + 1}`, 'checkpoint', { step: i + 1 }, u));

async function runWith(budget: object, script = [...steps(5), textTurn('complete')]) {
  const client = new ScriptedClient(script);
  const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace(), budget });
  const events = await collect(agent.run('go'));
  return { events, client, session, last: events.at(-1) };
}

describe('Agent budgets', () => {
  it('stops with cost_budget once cost exceeds maxCost, after recording the observation', async () => {
    // 5+2 tokens cost 0.000009 per turn: the third turn passes 0.00002.
    const { last, client, session } = await runWith({ maxCost: 0.00002 });
    expect(last?.type === 'agent_error' && last.data.reason).toBe('cost_budget');
    expect(client.calls).toBe(3);
    expect(session.messages.at(-1)?.role).toBe('tool');
  });

  it('enforces a limit given at the top level of Config as it does one given in budget', async () => {
    const client = new ScriptedClient([...steps(5), textTurn('complete')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace(), maxCost: 0.00002 });
    const last = (await collect(agent.run('go'))).at(-1);
    expect(last?.type === 'agent_error' && last.data.reason).toBe('cost_budget');
    expect(client.calls).toBe(3);
  });

  it('does not stop when cost equals maxCost exactly', async () => {
    const { last } = await runWith({ maxCost: 0.00005 }, [
      toolTurn('c1', 'checkpoint', { step: 1 }, usage(30, 10)),
      textTurn('complete', usage(0, 0)),
    ]);
    expect(last?.type).toBe('agent_end');
  });

  it('stops with token_budget once total tokens exceed maxTotalTokens', async () => {
    const { last, client } = await runWith({ maxTotalTokens: 14 });
    expect(last?.type === 'agent_error' && last.data.reason).toBe('token_budget');
    expect(client.calls).toBe(3);
  });

  it('Config.maxTurns fills a budget without maxTurns; the budget wins when it has one', async () => {
    const filled = makeAgent(new ScriptedClient([]), [], { cwd: tempWorkspace(), maxTurns: 3, budget: { maxCost: 1 } });
    expect(filled.config.budget.maxTurns).toBe(3);
    const own = makeAgent(new ScriptedClient([]), [], { cwd: tempWorkspace(), maxTurns: 3, budget: { maxTurns: 7 } });
    expect(own.config.maxTurns).toBe(7);
    expect(makeAgent(new ScriptedClient([]), [], { cwd: tempWorkspace() }).config.maxTurns).toBe(10);
  });

  it('ends a budget stop with a message that names the budget, what was used and the limit', async () => {
    const message = async (budget: object) => {
      const { last } = await runWith(budget);
      return last?.type === 'agent_error' ? last.data.message : last?.type;
    };
    expect(await message({ maxTurns: 2 })).toBe(
      'turn budget reached: 2 of 2 turns used while the model was still acting',
    );
    // 5+2 tokens cost 0.000009 per turn; three turns are 21 tokens.
    expect(await message({ maxCost: 0.00002 })).toBe('cost budget exceeded: 0.000027 > 0.00002');
    expect(await message({ maxTotalTokens: 14 })).toBe('token budget exceeded: 21 > 14 tokens');
  });

  describe('soft limit', () => {
    it('tells the model which budget is how far used, in the message and in the warning event', async () => {
      const { events, client } = await runWith({ maxTotalTokens: 20, softLimitRatio: 0.6 }, [
        ...steps(2),
        textTurn('wrapped up'),
      ]);
      const text =
        '[harness] The tokens budget of this run is 70% used. Tools are no longer available. ' +
        'Reply now with a concise final answer based on what you already know.';
      expect(client.requests[2]?.messages.at(-1)).toEqual({ role: 'user', content: text, author: 'harness' });
      expect(events.find((event) => event.type === 'budget_warning')?.data).toEqual({
        budget: 'tokens',
        used: 0.7,
        softLimitRatio: 0.6,
        message: text,
      });
    });

    it('warns once, withholds tools after a harness-authored message, and takes the final answer', async () => {
      const { events, client, session } = await runWith({ maxTurns: 4, softLimitRatio: 0.5 }, [
        ...steps(2),
        textTurn('wrapped up'),
      ]);
      const warnings = events.filter((event) => event.type === 'budget_warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.data).toMatchObject({ budget: 'turns', used: 0.5, softLimitRatio: 0.5 });
      expect(client.requests.map((request) => request.tools.length)).toEqual([1, 1, 0]);
      const note = client.requests[2]?.messages.at(-1);
      expect(note).toMatchObject({ role: 'user', author: 'harness' });
      expect(note?.content).toMatch(/final answer/);
      expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'wrapped up' } });
      expect(session.journal.some((entry) => entry.type === 'budget_warning')).toBe(true);
    });

    it('answers tool calls made while tools are withheld with an error, keeping one result per call', async () => {
      const { events, session } = await runWith({ maxTurns: 3, softLimitRatio: 0.3 }, steps(3));
      const completes = events.filter((event) => event.type === 'tool_call_complete');
      expect(completes.map((event) => event.data.success)).toEqual([true, false, false]);
      expect(session.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
      const last = events.at(-1);
      expect(last?.type === 'agent_error' && last.data.reason).toBe('turn_budget');
    });

    it('is off by default', async () => {
      const { events } = await runWith({ maxTurns: 10 });
      expect(events.some((event) => event.type === 'budget_warning')).toBe(false);
    });
  });

  it('a turn without usage still counts as a turn and adds nothing', async () => {
    const { session } = await runWith({}, [[StreamEvent.textDelta('hi'), StreamEvent.messageComplete()]]);
    expect(session.turnCount).toBe(1);
    expect(session.totalUsage).toEqual(usage(0, 0));
  });
});
