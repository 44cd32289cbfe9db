import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { collect } from '../support/fixtures.js';
import { approvalAgent, callsTurn, runDeciding, textTurn } from './support.js';

const states = (session: Session) =>
  session.journal.flatMap((entry) => (entry.type === 'transition' ? [`${entry.from}>${entry.to}`] : []));

describe('policy ask: awaitingApproval', () => {
  it('emits tool_approval_request, waits in awaitingApproval, runs the call once approved', async () => {
    const { agent, session, runs } = approvalAgent([callsTurn(['c1', 'change', { path: 'a' }]), textTurn('ok')]);
    const events = await runDeciding(agent.run('go'), (event) => {
      expect(agent.state).toBe('awaitingApproval');
      expect(agent.pendingApprovals().map((call) => call.callId)).toEqual(['c1']);
      expect(agent.approve(event.data.callId)).toEqual(['c1']);
    });
    expect(runs).toEqual(['change']);
    expect(events.map((event) => event.type)).toEqual([
      'agent_start',
      'tool_approval_request',
      'tool_approval_decision',
      'tool_call_start',
      'tool_call_complete',
      'text_delta',
      'text_complete',
      'agent_end',
    ]);
    expect(events[1]).toEqual({
      type: 'tool_approval_request',
      data: { callId: 'c1', name: 'change', arguments: { path: 'a' }, rule: 'write' },
    });
    expect(states(session)).toContain('executingTools>awaitingApproval');
    expect(states(session)).toContain('awaitingApproval>executingTools');
    const kinds = session.journal.map((entry) => entry.type);
    expect(kinds.indexOf('approval_request')).toBeLessThan(kinds.indexOf('approval_decision'));
    expect(kinds.indexOf('approval_decision')).toBeLessThan(kinds.indexOf('tool_started'));
  });

  it('a denied call never runs and is answered Error: denied: <reason>', async () => {
    const { agent, session, runs, client } = approvalAgent([callsTurn(['c1', 'run']), textTurn('ok')]);
    await runDeciding(agent.run('go'), (event) => agent.deny(event.data.callId, 'not on my machine'));
    expect(runs).toEqual([]);
    expect(client.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      callId: 'c1',
      content: 'Error: denied: not on my machine',
    });
    expect(session.journal).toContainEqual({
      type: 'approval_decision',
      callId: 'c1',
      approved: false,
      reason: 'not on my machine',
    });
    expect(session.journal.some((entry) => entry.type === 'tool_started')).toBe(false);
  });

  it('a deny rule answers without asking', async () => {
    const { agent, runs, client } = approvalAgent([callsTurn(['c1', 'run']), textTurn('ok')], {
      permissions: { run: 'deny' },
    });
    const events = await collect(agent.run('go'));
    expect(events.some((event) => event.type === 'tool_approval_request')).toBe(false);
    expect(runs).toEqual([]);
    expect(client.requests[1]?.messages.at(-1)?.content).toBe("Error: denied: the tool policy denies 'run'");
  });

  it('a name beats a kind', async () => {
    const { agent, runs } = approvalAgent([callsTurn(['c1', 'change']), textTurn('ok')], {
      permissions: { write: 'deny', change: 'allow' },
    });
    await collect(agent.run('go'));
    expect(runs).toEqual(['change']);
  });

  it('allowed calls of the batch run while the others wait; results keep the model order', async () => {
    const { agent, runs, client } = approvalAgent([
      callsTurn(['c1', 'change'], ['c2', 'look'], ['c3', 'run']),
      textTurn('ok'),
    ]);
    const seen: string[] = [];
    let ranWhileWaiting: string[] = [];
    await runDeciding(agent.run('go'), (event) => {
      seen.push(event.data.callId);
      if (event.data.callId !== 'c3') return;
      setTimeout(() => {
        ranWhileWaiting = [...runs];
        expect(agent.state).toBe('awaitingApproval');
        agent.approve(['c3', 'c1']);
      }, 20);
    });
    expect(seen).toEqual(['c1', 'c3']);
    expect(ranWhileWaiting).toEqual(['look']);
    expect(runs).toEqual(['look', 'change', 'run']);
    expect(client.requests[1]?.messages.slice(-3).map((m) => (m as { callId: string }).callId)).toEqual([
      'c1',
      'c2',
      'c3',
    ]);
  });

  it('asks only once the calls that need no decision have run, so a reader that holds the request holds nothing back', async () => {
    const { agent, runs, session } = approvalAgent([
      callsTurn(['c1', 'change'], ['c2', 'look'], ['c3', 'look'], ['c4', 'run']),
      textTurn('ok'),
    ]);
    const ranBeforeAsked: string[][] = [];
    const events = await runDeciding(agent.run('go'), (event) => {
      ranBeforeAsked.push([...runs]);
      agent.approve(event.data.callId);
    });
    expect(ranBeforeAsked).toEqual([
      ['look', 'look'],
      ['look', 'look'],
    ]);
    expect(events.filter((event) => event.type === 'tool_approval_request').map((e) => e.data.callId)).toEqual([
      'c1',
      'c4',
    ]);
    // Asked once per call, after the allowed calls' results are journaled.
    const kinds = session.journal.map((entry) => entry.type);
    expect(kinds.filter((kind) => kind === 'approval_request')).toHaveLength(2);
    expect(kinds.indexOf('approval_request')).toBeGreaterThan(kinds.indexOf('tool_result'));
    expect(runs).toEqual(['look', 'look', 'change', 'run']);
  });

  it('approve takes several ids; unknown or decided ids change nothing', async () => {
    const { agent, runs, client } = approvalAgent([
      callsTurn(['c1', 'change'], ['c2', 'look'], ['c3', 'run']),
      textTurn('ok'),
    ]);
    const events = await runDeciding(agent.run('go'), (event) => {
      if (event.data.callId !== 'c3') return;
      expect(agent.approve(['c1', 'nope', 'c3'])).toEqual(['c1', 'c3']);
      expect(agent.approve('c1')).toEqual([]);
    });
    expect(runs).toEqual(['look', 'change', 'run']);
    expect(client.requests[1]?.messages.slice(-3).map((m) => (m as { callId: string }).callId)).toEqual([
      'c1',
      'c2',
      'c3',
    ]);
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});

describe('deciding from a subscriber', () => {
  it('a decision sent while the machine is mid-step (a synchronous subscriber) is applied after that step', async () => {
    const { agent, runs } = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'run']), textTurn('ok')]);
    agent.events.subscribe((event) => {
      if (event.type !== 'tool_approval_request') return;
      if (event.data.callId === 'c1') agent.approve('c1');
      else agent.deny('c2', 'no');
    });
    const events = await collect(agent.run('go'));
    expect(runs).toEqual(['change']);
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});
