import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  agentTool,
  Config,
  defineTool,
  type PermissionPolicy,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import { callChunk, doneChunk, drain, FnClient, textChunk } from '../support/runs.js';

/** A parent that delegates once to `helper`, whose child writes a note once, then both answer. */
function delegation(parentPolicy: PermissionPolicy, childPolicy: PermissionPolicy) {
  const notes: string[] = [];
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Writes a note.',
    kind: ToolKind.WRITE,
    schema: z.object({ text: z.string() }),
    execute: ({ params }) => {
      notes.push(params.text);
      return ToolResult.success('written');
    },
  });
  const childClient = new FnClient((n, messages) =>
    n === 1
      ? [callChunk('w1', 'write_note', { text: 'hello' }), doneChunk()]
      : [textChunk(`child saw: ${messages.at(-1)?.content}`), doneChunk()],
  );
  const helper = agentTool({
    name: 'helper',
    description: 'Writes notes.',
    config: new Config({ permissions: childPolicy }),
    client: childClient,
    registry: new ToolRegistry().register(writeNote),
  });
  const parentClient = new FnClient((n, messages) =>
    n === 1
      ? [callChunk('h1', 'helper', { task: 'write hello' }), doneChunk()]
      : [textChunk(`parent saw: ${messages.at(-1)?.content}`), doneChunk()],
  );
  const agent = new Agent(new Config({ permissions: { ...parentPolicy, helper: 'allow' } }), {
    client: parentClient,
    registry: new ToolRegistry().register(helper),
  });
  return { agent, notes };
}

const answerOf = (events: AgentEvent[]) => {
  const end = events.at(-1);
  return end?.type === 'agent_end' ? end.data.response : `no answer: ${JSON.stringify(end)}`;
};

describe('sub-agents: a child never widens its parent’s tool policy', () => {
  it('denies a child’s write when the parent’s policy denies writes, whatever the child’s own policy says', async () => {
    const { agent, notes } = delegation({ write: 'deny' }, { write_note: 'allow' });
    const events = await drain(agent.run('go'));
    expect(notes).toEqual([]);
    expect(answerOf(events)).toContain("Error: denied: the tool policy denies 'write_note'");
  });

  it('keeps a child’s own narrower rule: the parent allows, the child denies', async () => {
    const { agent, notes } = delegation({}, { write: 'deny' });
    await drain(agent.run('go'));
    expect(notes).toEqual([]);
  });

  it('composes function policies: the parent’s function denies what the child’s allows', async () => {
    const { agent, notes } = delegation(
      { write: (call) => (JSON.stringify(call.arguments).includes('hello') ? { deny: 'no greetings' } : 'allow') },
      { write_note: () => 'allow' },
    );
    const events = await drain(agent.run('go'));
    expect(notes).toEqual([]);
    expect(answerOf(events)).toContain('Error: denied: no greetings');
  });

  it('composes function policies: a child’s function may narrow, and the parent’s allow never widens it', async () => {
    const { agent, notes } = delegation({ write: () => 'allow' }, { write_note: () => ({ deny: 'child says no' }) });
    const events = await drain(agent.run('go'));
    expect(notes).toEqual([]);
    expect(answerOf(events)).toContain('Error: denied: child says no');
  });

  it('asks the parent’s approver about a child’s call, with the child’s path, and runs it once approved', async () => {
    const { agent, notes } = delegation({ write: 'ask' }, {});
    const requests: AgentEvent<'tool_approval_request'>['data'][] = [];
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type !== 'tool_approval_request') continue;
      requests.push(event.data);
      expect(agent.approve(event.data.callId)).toEqual([event.data.callId]);
    }
    expect(requests).toEqual([
      { callId: 'w1', name: 'write_note', arguments: { text: 'hello' }, path: ['helper'], rule: 'parent write' },
    ]);
    expect(notes).toEqual(['hello']);
    expect(answerOf(events)).toBe('parent saw: child saw: written');
  });

  it('answers a child’s call denied through the parent’s deny with the reason given', async () => {
    const { agent, notes } = delegation({ write: 'ask' }, {});
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type === 'tool_approval_request') agent.deny(event.data.callId, 'not today');
    }
    expect(notes).toEqual([]);
    expect(answerOf(events)).toBe('parent saw: child saw: Error: denied: not today');
  });
});
