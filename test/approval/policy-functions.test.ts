import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session, type ToolCall } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import type { PolicyContext, PolicyFunction } from '../../src/tools/index.js';
import { approvalAgent, approvalRegistry, callsTurn, runDeciding, textTurn } from './support.js';

const decisionsOf = (session: Session) => session.journal.filter((entry) => entry.type === 'approval_decision');
const toolMessages = (client: ScriptedClient) =>
  client.requests.at(-1)?.messages.filter((message) => message.role === 'tool');

describe('permissions as functions of the call', () => {
  it('a throwing policy denies, with the error as the reason, and the tool never runs', async () => {
    const policy: PolicyFunction = () => {
      throw new Error('policy bug');
    };
    const { agent, runs, session, client } = approvalAgent(
      [callsTurn(['c1', 'run', { command: 'ls' }]), textTurn('ok')],
      {
        permissions: { shell: policy },
      },
    );
    await runDeciding(agent.run('go'), () => expect.unreachable('a throwing policy must not ask'));
    expect(runs).toEqual([]);
    expect(toolMessages(client)).toEqual([
      { role: 'tool', callId: 'c1', content: 'Error: denied: the tool policy (shell: policy) failed: policy bug' },
    ]);
    expect(decisionsOf(session)).toEqual([
      {
        type: 'approval_decision',
        callId: 'c1',
        approved: false,
        reason: 'the tool policy (shell: policy) failed: policy bug',
        rule: 'shell: policy',
      },
    ]);
  });

  it('a rejecting async policy denies likewise; an async allow runs the call', async () => {
    const permissions = {
      run: async (): Promise<'allow'> => Promise.reject(new Error('no answer from the policy server')),
      change: async function reviewed() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'allow' as const;
      },
    };
    const { agent, runs, session } = approvalAgent([callsTurn(['c1', 'run'], ['c2', 'change']), textTurn('ok')], {
      permissions,
    });
    const events = await runDeciding(agent.run('go'), () => expect.unreachable('nothing asks'));
    expect(runs).toEqual(['change']);
    expect(decisionsOf(session)).toEqual([
      {
        type: 'approval_decision',
        callId: 'c1',
        approved: false,
        reason: 'the tool policy (run) failed: no answer from the policy server',
        rule: 'run',
      },
      { type: 'approval_decision', callId: 'c2', approved: true, rule: 'change: reviewed' },
    ]);
    expect(events.filter((event) => event.type === 'tool_approval_decision').map((event) => event.data)).toEqual([
      {
        callId: 'c1',
        name: 'run',
        approved: false,
        reason: 'the tool policy (run) failed: no answer from the policy server',
        rule: 'run',
      },
      { callId: 'c2', name: 'change', approved: true, rule: 'change: reviewed' },
    ]);
    expect(checkLoopInvariants(session.journal)).toEqual([]);
  });

  it('answers { deny: reason } with that reason, and anything else than a permission denies', async () => {
    const { agent, client } = approvalAgent([callsTurn(['c1', 'run'], ['c2', 'change']), textTurn('ok')], {
      permissions: { run: () => ({ deny: 'no shell on Fridays' }), change: () => 'yes' as never },
    });
    await runDeciding(agent.run('go'), () => expect.unreachable('nothing asks'));
    expect(toolMessages(client)).toEqual([
      { role: 'tool', callId: 'c1', content: 'Error: denied: no shell on Fridays' },
      {
        role: 'tool',
        callId: 'c2',
        content: `Error: denied: the tool policy (change) answered "yes", not 'allow', 'ask', 'deny' or { deny: reason }`,
      },
    ]);
  });

  it('sees the call, and a ctx with the session, the turn and the earlier decisions', async () => {
    const seen: { call: ToolCall; ctx: PolicyContext }[] = [];
    const { agent, session, config } = approvalAgent(
      [callsTurn(['c1', 'change', { path: 'a' }]), callsTurn(['c2', 'change', { path: 'b' }]), textTurn('ok')],
      {
        permissions: {
          change: (call, ctx) => {
            seen.push({ call, ctx });
            return call.callId === 'c1' ? 'ask' : 'allow';
          },
        },
      },
    );
    await runDeciding(agent.run('go'), (event) => agent.approve(event.data.callId));
    expect(seen.map(({ call }) => call)).toEqual([
      { callId: 'c1', name: 'change', arguments: { path: 'a' } },
      { callId: 'c2', name: 'change', arguments: { path: 'b' } },
    ]);
    const [first, second] = seen.map(({ ctx }) => ctx);
    expect(first).toMatchObject({ sessionId: session.id, cwd: config.cwd, turn: 1, decisions: [] });
    expect(second).toMatchObject({
      turn: 2,
      decisions: [{ callId: 'c1', name: 'change', approved: true }],
    });
    expect(second?.signal).toBeInstanceOf(AbortSignal);
  });

  it('asks with the rule that asked, and journals it on the request', async () => {
    const { agent, session, runs } = approvalAgent([callsTurn(['c1', 'change']), textTurn('ok')], {
      permissions: {
        write: function reviewWrites() {
          return 'ask' as const;
        },
      },
    });
    const events = await runDeciding(agent.run('go'), (event) => agent.approve(event.data.callId));
    expect(events.find((event) => event.type === 'tool_approval_request')?.data).toMatchObject({
      callId: 'c1',
      rule: 'write: reviewWrites',
    });
    expect(session.journal.find((entry) => entry.type === 'approval_request')).toEqual({
      type: 'approval_request',
      callId: 'c1',
      rule: 'write: reviewWrites',
    });
    expect(runs).toEqual(['change']);
  });

  it('takes a function as the whole policy, or under the fallback key "*" behind name and kind rules', async () => {
    const whole = approvalAgent([callsTurn(['c1', 'look'], ['c2', 'run']), textTurn('ok')], {
      permissions: function lookOnly(call: ToolCall) {
        return call.name === 'look' ? 'allow' : 'deny';
      },
    });
    await runDeciding(whole.agent.run('go'), () => expect.unreachable('nothing asks'));
    expect(whole.runs).toEqual(['look']);
    expect(decisionsOf(whole.session).map((entry) => [entry.callId, entry.approved, entry.rule])).toEqual([
      ['c1', true, 'fallback: lookOnly'],
      ['c2', false, 'fallback: lookOnly'],
    ]);

    const mixed = approvalAgent([callsTurn(['c1', 'look'], ['c2', 'run'], ['c3', 'change']), textTurn('ok')], {
      permissions: { run: 'allow', read: 'allow', '*': () => 'deny' },
    });
    await runDeciding(mixed.agent.run('go'), () => expect.unreachable('nothing asks'));
    expect(mixed.runs).toEqual(['look', 'run']);
  });

  it('a resumed run keeps the recorded verdicts and never calls the policy again', async () => {
    const made = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'run'])], {
      permissions: { change: () => 'ask', run: () => ({ deny: 'not now' }) },
    });
    await runDeciding(made.agent.run('go'), () => setTimeout(() => made.agent.suspend(), 5));
    const snapshot = JSON.parse(JSON.stringify(made.session.toJSON()));
    let called = 0;
    const counting: PolicyFunction = () => {
      called++;
      return 'allow';
    };
    const config = new Config({ permissions: { change: counting, run: counting } });
    const runs: string[] = [];
    const client = new ScriptedClient([textTurn('done')]);
    const session = Session.fromJSON(snapshot, config, { client, registry: approvalRegistry(config, runs) });
    const agent = new Agent(config, { session });
    const events = await runDeciding(agent.resume(), (event) => agent.approve(event.data.callId));
    expect(called).toBe(0);
    expect(events.find((event) => event.type === 'tool_approval_request')?.data).toMatchObject({
      callId: 'c1',
      rule: 'change: counting',
    });
    expect(runs).toEqual(['change']);
    expect(client.requests[0]?.messages.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', callId: 'c1', content: 'change done' },
      { role: 'tool', callId: 'c2', content: 'Error: denied: not now' },
    ]);
  });
});
