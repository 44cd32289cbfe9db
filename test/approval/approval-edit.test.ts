import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, defineTool, HarnessError, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { callsTurn, runDeciding, textTurn } from './support.js';

/** An agent whose `save` tool (write, `{ path: string }`) asks first and records the paths it saved. */
function editingAgent() {
  const config = new Config({ cwd: tempWorkspace(), permissions: { write: 'ask' } });
  const saved: string[] = [];
  const save = defineTool({
    name: 'save',
    description: 'Saves a file.',
    kind: 'write',
    schema: z.object({ path: z.string().min(1) }),
    execute: ({ params }) => {
      saved.push(params.path);
      return `saved ${params.path}`;
    },
  });
  const client = new ScriptedClient([callsTurn(['c1', 'save', { path: '/etc/passwd' }]), textTurn('ok')]);
  const session = new Session(config, { client, registry: new ToolRegistry(config).register(save) });
  return { agent: new Agent(config, { session }), session, client, saved, config };
}

describe('agent.approve(callId, { arguments })', () => {
  it('refuses an edit that does not fit the schema, naming the call and the issue; the call keeps waiting', async () => {
    const { agent, saved } = editingAgent();
    let refusal: unknown;
    await runDeciding(agent.run('go'), (event) => {
      try {
        agent.approve(event.data.callId, { arguments: { path: 42 } });
      } catch (error) {
        refusal = error;
      }
      expect(agent.pendingApprovals().map((call) => call.callId)).toEqual(['c1']);
      agent.approve(event.data.callId, { arguments: { path: 'notes.txt' } });
    });
    expect(refusal).toBeInstanceOf(HarnessError);
    expect((refusal as HarnessError).reason).toBe('invalid_argument');
    expect((refusal as HarnessError).message).toMatch(
      /approve\('c1', \{ arguments \}\): the edited arguments do not fit the schema of tool 'save': path: .*string/,
    );
    expect(saved).toEqual(['notes.txt']);
  });

  it('runs the tool with the edit, journals both, and the model sees the edited call', async () => {
    const { agent, session, client, saved, config } = editingAgent();
    const events = await runDeciding(agent.run('go'), (event) => {
      expect(agent.approve(event.data.callId, { arguments: { path: 'notes.txt' } })).toEqual(['c1']);
    });
    expect(saved).toEqual(['notes.txt']);
    expect(session.journal.find((entry) => entry.type === 'assistant_message')).toMatchObject({
      toolCalls: [{ callId: 'c1', name: 'save', arguments: { path: '/etc/passwd' } }],
    });
    expect(session.journal.find((entry) => entry.type === 'approval_decision')).toEqual({
      type: 'approval_decision',
      callId: 'c1',
      approved: true,
      arguments: { path: 'notes.txt' },
    });
    expect(events.find((event) => event.type === 'tool_approval_decision')?.data).toEqual({
      callId: 'c1',
      name: 'save',
      approved: true,
      arguments: { path: 'notes.txt' },
    });
    const sent = client.requests[1]?.messages;
    expect(sent?.find((message) => message.role === 'assistant')).toMatchObject({
      toolCalls: [{ callId: 'c1', name: 'save', arguments: { path: 'notes.txt' } }],
    });
    expect(sent?.at(-1)).toEqual({ role: 'tool', callId: 'c1', content: 'saved notes.txt' });
    // A session loaded from the journal shows the model the same edited call.
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(replayed.messages).toEqual(session.messages);
  });

  it('edits one call only', async () => {
    const { agent } = editingAgent();
    await runDeciding(agent.run('go'), (event) => {
      expect(() => agent.approve([event.data.callId, 'c2'], { arguments: { path: 'x' } })).toThrow(/edits one call/);
      agent.approve(event.data.callId);
    });
  });
});
