import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  HarnessError,
  handoffTool,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { parseJournal, serializeJournal } from '../../src/journal.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { drain } from '../support/runs.js';

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const callTurn = (callId: string, name: string) => [
  StreamEvent.toolCallComplete({ callId, name, arguments: {} }),
  StreamEvent.messageComplete(usage),
];
const textTurn = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete(usage)];

/** Triage hands to billing, whose `refund` tool and handoff back are its own. */
function agents() {
  const refunds: string[] = [];
  const billingRegistry = new ToolRegistry();
  const triageRegistry = new ToolRegistry();
  const billing = { name: 'billing', instructions: 'You handle billing.', registry: billingRegistry };
  const triage = { name: 'triage', instructions: 'You triage.', registry: triageRegistry };
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
    handoffTool({ agent: triage }),
  );
  triageRegistry.register(handoffTool({ agent: billing }));
  return { refunds, triageRegistry };
}

describe('handoff: an agent hands the conversation to another', () => {
  it('journals the HANDOFF; the next requests use the other agent’s instructions and tools', async () => {
    const { refunds, triageRegistry } = agents();
    const config = new Config({ systemPrompt: 'You triage.' });
    const client = new ScriptedClient([
      callTurn('h1', 'transfer_to_billing'),
      callTurn('f1', 'refund'),
      textTurn('Refunded.'),
    ]);
    const agent = new Agent(config, { client, registry: triageRegistry });
    const events = await drain(agent.run('I want my money back'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'Refunded.' } });
    expect(refunds).toEqual(['f1']);
    const [first, second, third] = client.requests;
    expect(first?.messages[0]).toEqual({ role: 'system', content: 'You triage.' });
    expect(first?.tools.map((tool) => tool.name)).toEqual(['transfer_to_billing']);
    expect(second?.messages[0]).toEqual({ role: 'system', content: 'You handle billing.' });
    expect(second?.tools.map((tool) => tool.name)).toEqual(['refund', 'transfer_to_triage']);
    expect(third?.messages[0]?.content).toBe('You handle billing.');
    const { journal } = agent.session;
    const handoff = journal.findIndex((entry) => entry.type === 'handoff');
    expect(journal[handoff]).toEqual({
      type: 'handoff',
      from: 'main',
      to: 'billing',
      instructions: 'You handle billing.',
    });
    expect(journal[handoff + 1]).toEqual({ type: 'tool_result', callId: 'h1', content: 'Transferred to billing.' });
    expect(agent.session.activeAgent).toBe('billing');
    expect(checkLoopInvariants(journal, { config })).toEqual([]);
  });

  it('a call beside the handoff is decided and run with the tools of the agent that asked: unknown, never run', async () => {
    const { refunds, triageRegistry } = agents();
    const config = new Config({ permissions: { write: 'ask' } });
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'h1', name: 'transfer_to_billing', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'f1', name: 'refund', arguments: {} }),
        StreamEvent.messageComplete(usage),
      ],
      callTurn('f2', 'refund'),
      textTurn('Refunded.'),
    ]);
    const agent = new Agent(config, { client, registry: triageRegistry });
    const asked: string[] = [];
    for await (const event of agent.run('refund me')) {
      if (event.type !== 'tool_approval_request') continue;
      asked.push(event.data.callId);
      agent.approve(event.data.callId);
    }
    // f1 asked for a tool triage does not have: answered as unknown; f2, asked of billing, is asked about.
    const f1 = client.requests[1]?.messages.find((message) => message.role === 'tool' && message.callId === 'f1');
    expect(f1?.content).toMatch(/^Error: .*unknown tool.*'refund'/i);
    expect(asked).toEqual(['f2']);
    expect(refunds).toEqual(['f2']);
  });

  it('replay rebuilds the handoff: same journal, same instructions and tools in charge', async () => {
    const { triageRegistry } = agents();
    const config = new Config({ systemPrompt: 'You triage.' });
    const client = new ScriptedClient([callTurn('h1', 'transfer_to_billing'), textTurn('Billing here.')]);
    const agent = new Agent(config, { client, registry: triageRegistry });
    await drain(agent.run('billing please'));
    const text = serializeJournal(agent.session.journal);
    const replayed = Session.replay(parseJournal(text), config);
    expect(stableJson(replayed.journal)).toBe(stableJson(agent.session.journal));
    expect(replayed.activeAgent).toBe('billing');
    expect(replayed.messages[0]).toEqual({ role: 'system', content: 'You handle billing.' });
    const resumed = new Agent(config, { client, tools: triageRegistry, session: replayed });
    expect(resumed.activeTools.names()).toEqual(['refund', 'transfer_to_triage']);
    expect(resumed.tools).toBe(triageRegistry);
  });

  it('a loaded session goes on with the agent handed to, and can hand back', async () => {
    const store = await openStore('memory:');
    const { triageRegistry } = agents();
    const config = new Config({ systemPrompt: 'You triage.' });
    const first = new ScriptedClient([callTurn('h1', 'transfer_to_billing'), textTurn('Billing here.')]);
    const session = new Session(config, { client: first, registry: triageRegistry, store, id: 's' });
    await drain(new Agent(config, { session }).run('billing please'));
    await session.close();
    const next = new ScriptedClient([callTurn('h2', 'transfer_to_triage'), textTurn('Triage again.')]);
    const loaded = await Session.load(store, 's', { config, client: next, registry: triageRegistry });
    const events = await drain(new Agent(config, { session: loaded }).run('something else'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'Triage again.' } });
    expect(next.requests[0]?.tools.map((tool) => tool.name)).toEqual(['refund', 'transfer_to_triage']);
    expect(next.requests[1]?.messages[0]).toEqual({ role: 'system', content: 'You triage.' });
    expect(
      loaded.journal
        .filter((entry) => entry.type === 'handoff')
        .map((entry) => entry.type === 'handoff' && [entry.from, entry.to]),
    ).toEqual([
      ['main', 'billing'],
      ['billing', 'triage'],
    ]);
    await loaded.close();
    await store.close();
  });

  it('refuses a handoff agent without a name, instructions or registry (invalid_argument)', () => {
    const registry = new ToolRegistry();
    expect(() => handoffTool({ agent: { name: 'bad name', instructions: 'x', registry } })).toThrow(HarnessError);
    expect(() => handoffTool({ agent: { name: 'ok', instructions: ' ', registry } })).toThrow(/needs instructions/);
  });
});
