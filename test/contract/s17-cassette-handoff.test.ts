import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, defineTool, type ModelClient, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { handoffTool } from '../../src/subagents.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** The user's code: a triage agent that hands over to a billing agent whose tool refunds. */
function agentMaker() {
  const cwd = tempWorkspace();
  const refunds = { count: 0 };
  const make = (client: ModelClient): Agent => {
    const config = new Config({ cwd });
    const billing = new ToolRegistry(config).register(
      defineTool({
        name: 'refund',
        description: 'Refund an order.',
        kind: 'write',
        schema: z.object({ order: z.string() }),
        execute: ({ params }) => {
          refunds.count++;
          return `refunded ${params.order}`;
        },
      }),
    );
    const tools = new ToolRegistry(config).register(
      handoffTool({ agent: { name: 'billing', instructions: 'You handle refunds.', registry: billing } }),
    );
    return new Agent(config, { client, tools, session: new Session(config) });
  };
  return { make, refunds };
}

const script = () => [
  toolTurn('h1', 'transfer_to_billing', {}),
  toolTurn('r1', 'refund', { order: 'A-1' }),
  textTurn('refunded'),
];

describe('SPEC §17: a session with a handoff replays unchanged, tools answered from the recording', () => {
  it('hands over again and answers the receiving agent’s calls from the recording, running none', async () => {
    const { make, refunds } = agentMaker();
    const agent = make(new ScriptedClient(script()));
    expect((await collect(agent.run('refund order A-1'))).at(-1)).toMatchObject({ data: { response: 'refunded' } });
    expect(agent.session.journal.some((entry) => entry.type === 'handoff')).toBe(true);
    expect(refunds.count).toBe(1);
    const report = await replayCassette(agent.session, { makeAgent: make });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
    expect(refunds.count).toBe(1);
  });

  it('runs the receiving agent’s tools in live mode and compares their results', async () => {
    const { make, refunds } = agentMaker();
    const agent = make(new ScriptedClient(script()));
    await collect(agent.run('refund order A-1'));
    const report = await replayCassette(agent.session, { makeAgent: make, tools: 'live' });
    expect(report.ok, formatCassetteReport(report)).toBe(true);
    expect(refunds.count).toBe(2);
  });
});
