import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, ScriptedClient, ToolKind } from '../../src/index.js';
import { collect, makeAgent, textTurn, toolTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function lastEvent(events: readonly AgentEvent[]) {
  const last = events.at(-1);
  return last?.type === 'agent_error' ? last.data : last;
}

/** A tool that runs `during` while it runs, then answers after a tick. */
function toolDoing(during: () => void) {
  return defineTool({
    name: 'act',
    description: 'Does something while it runs.',
    kind: ToolKind.WRITE,
    schema: z.object({}),
    execute: async () => {
      during();
      await new Promise((resolve) => setTimeout(resolve, 1));
      return 'acted';
    },
  });
}

describe('which stop reason wins', () => {
  it('an abort during the tools of the last allowed turn ends the run as aborted, not turn_budget', async () => {
    let agent: Agent | undefined;
    const made = makeAgent(
      new ScriptedClient([toolTurn('a1', 'act', {}), textTurn('never')]),
      [() => toolDoing(() => agent?.abort('stop pressed'))],
      { cwd: tempWorkspace(), maxTurns: 1 },
    );
    agent = made.agent;
    const events = await collect(agent.run('go'));
    expect(lastEvent(events)).toEqual({ reason: 'aborted', message: 'stop pressed' });
    // The call still got its one result before the run ended.
    expect(made.session.messages.filter((m) => m.role === 'tool').map((m) => m.callId)).toEqual(['a1']);
  });

  it('the wall clock running out during the tools of the last allowed turn ends the run as time_budget', async () => {
    const clock = new SimulatedClock();
    const made = makeAgent(
      new ScriptedClient([toolTurn('a1', 'act', {}), textTurn('never')]),
      [() => toolDoing(() => clock.increment(1_000))],
      { cwd: tempWorkspace(), budget: { maxTurns: 1, maxWallClockMs: 1_000 } },
    );
    const agent = new Agent(made.config, { session: made.session, clock });
    const events = await collect(agent.run('go'));
    expect(lastEvent(events)).toMatchObject({ reason: 'time_budget' });
  });

  it('the turn limit wins over cost and tokens exceeded on the same turn, and cost over tokens', async () => {
    const heavy = usage(2_000, 0); // costs 0.002 and counts 2,000 tokens
    const run = async (maxTurns: number) => {
      const { agent } = makeAgent(
        new ScriptedClient([toolTurn('a1', 'act', {}, heavy), textTurn('never')]),
        [() => toolDoing(() => {})],
        { cwd: tempWorkspace(), budget: { maxTurns, maxCost: 0.001, maxTotalTokens: 1_000 } },
      );
      return lastEvent(await collect(agent.run('go')));
    };
    expect(await run(1)).toMatchObject({ reason: 'turn_budget' });
    expect(await run(5)).toMatchObject({ reason: 'cost_budget' });
  });
});
