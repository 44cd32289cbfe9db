// SPEC §10 with §13's handoffs: the policy is looked up against the tools of the agent in charge
// (after a handoff, the agent handed to), and a run suspended while such a call waits is resumed
// from its store in a fresh session: the request is emitted again and only the approved call runs.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  handoffTool,
  openStore,
  ScriptedClient,
  Session,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { textTurn, toolTurn } from '../support/fixtures.js';

const callTurn = (callId: string, name: string) => toolTurn(callId, name, {});

/** Triage hands to billing, whose `refund` (a write) records each run in `refunds`. */
function triageTools(refunds: string[]) {
  const billingRegistry = new ToolRegistry();
  const triageRegistry = new ToolRegistry();
  const billing = { name: 'billing', instructions: 'You handle billing.', registry: billingRegistry };
  billingRegistry.register(
    defineTool({
      name: 'refund',
      description: 'Refunds the last order.',
      kind: ToolKind.WRITE,
      schema: z.object({}),
      execute: ({ callId }) => {
        refunds.push(callId);
        return 'refunded';
      },
    }),
  );
  return triageRegistry.register(handoffTool({ agent: billing }));
}

describe('a handed-to agent’s call that asks, suspended and resumed from the store', () => {
  it('is asked again after a reload, runs once approved, and the model sees billing’s context', async () => {
    const store = await openStore('memory:');
    const config = new Config({ systemPrompt: 'You triage.', permissions: { write: 'ask' } });
    const before: string[] = [];
    const first = new ScriptedClient([callTurn('h1', 'transfer_to_billing'), callTurn('f1', 'refund')]);
    const session = new Session(config, { client: first, registry: triageTools(before), store, id: 's' });
    const agent = new Agent(config, { session });
    const events: AgentEvent[] = [];
    for await (const event of agent.run('refund me')) {
      events.push(event);
      if (event.type === 'tool_approval_request') agent.suspend();
    }
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    expect(before).toEqual([]);
    await session.close();

    const after: string[] = [];
    const next = new ScriptedClient([textTurn('Refunded.')]);
    const loaded = await Session.load(store, 's', { config, client: next, registry: triageTools(after) });
    const resumed = new Agent(config, { session: loaded });
    const asked: unknown[] = [];
    const resumedEvents: AgentEvent[] = [];
    for await (const event of resumed.resume()) {
      resumedEvents.push(event);
      if (event.type === 'tool_approval_request') {
        asked.push(event.data);
        resumed.approve(event.data.callId);
      }
    }
    expect(asked).toEqual([{ callId: 'f1', name: 'refund', arguments: {}, rule: 'write' }]);
    expect(after).toEqual(['f1']);
    expect(resumedEvents.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'Refunded.' } });
    const request = next.requests[0];
    expect(request?.messages[0]).toEqual({ role: 'system', content: 'You handle billing.' });
    expect(request?.messages.at(-1)).toEqual({ role: 'tool', callId: 'f1', content: 'refunded' });
    await loaded.close();
    await store.close();
  });
});
