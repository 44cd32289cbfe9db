import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session, stableJson } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect } from '../support/fixtures.js';
import { approvalAgent, approvalRegistry, callsTurn, runDeciding, textTurn } from './support.js';

/** Runs until the first approval request, then suspends; returns the saved snapshot. */
async function suspendedRun() {
  const made = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'look'], ['c3', 'run'])]);
  const events = await runDeciding(made.agent.run('go'), (event) => {
    if (event.data.callId === 'c3') setTimeout(() => made.agent.suspend(), 10);
  });
  return { ...made, events, snapshot: JSON.parse(JSON.stringify(made.session.toJSON())) };
}

/** A fresh agent on the snapshot, as another process would load it. */
function reload(snapshot: unknown, turns: ConstructorParameters<typeof ScriptedClient>[0], permissions?: object) {
  const config = new Config({ permissions: (permissions ?? { write: 'ask', shell: 'ask' }) as never });
  const runs: string[] = [];
  const client = new ScriptedClient(turns);
  const session = Session.fromJSON(snapshot, config, { client, registry: approvalRegistry(config, runs) });
  return { agent: new Agent(config, { session }), session, runs, client };
}

describe('agent.suspend()', () => {
  it('ends a waiting run with reason suspended and leaves the undecided calls unanswered', async () => {
    const { events, session, runs } = await suspendedRun();
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    expect((events.at(-1) as { data: { message: string } }).data.message).toContain("'c1', 'c3'");
    expect(runs).toEqual(['look']);
    expect(session.pendingToolCalls().map((call) => call.callId)).toEqual(['c1', 'c3']);
    expect(session.journal.filter((entry) => entry.type === 'tool_result').map((e) => e.callId)).toEqual(['c2']);
  });

  it('returns false and changes nothing when the run is not waiting', async () => {
    const { agent } = approvalAgent([textTurn('hi')]);
    expect(agent.suspend()).toBe(false);
    const events = await collect(agent.run('go'));
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});

describe('resume after suspend', () => {
  it('asks again for the pending calls and runs exactly the approved ones', async () => {
    const { snapshot } = await suspendedRun();
    const { agent, runs, client } = reload(snapshot, [textTurn('done')]);
    const asked: string[] = [];
    const events = await runDeciding(agent.resume(), (event) => {
      asked.push(event.data.callId);
      if (event.data.callId === 'c1') agent.approve('c1');
      else agent.deny('c3', 'no shell');
    });
    expect(asked).toEqual(['c1', 'c3']);
    expect(runs).toEqual(['change']);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(client.requests[0]?.messages.slice(-3)).toEqual([
      { role: 'tool', callId: 'c1', content: 'change done' },
      { role: 'tool', callId: 'c2', content: 'look done' },
      { role: 'tool', callId: 'c3', content: 'Error: denied: no shell' },
    ]);
  });

  it('applies resume({ approvals }) without asking', async () => {
    const { snapshot } = await suspendedRun();
    const { agent, runs, session } = reload(snapshot, [textTurn('done')]);
    const events = await collect(agent.resume({ approvals: { c1: 'approve', c3: 'deny' } }));
    expect(events.some((event) => event.type === 'tool_approval_request')).toBe(false);
    expect(runs).toEqual(['change']);
    expect(session.journal.filter((entry) => entry.type === 'approval_decision')).toEqual([
      { type: 'approval_decision', callId: 'c1', approved: true },
      { type: 'approval_decision', callId: 'c3', approved: false, reason: 'the user denied this call' },
    ]);
  });

  it('refuses approvals for calls that are not pending, naming them', async () => {
    const { snapshot } = await suspendedRun();
    const { agent } = reload(snapshot, [textTurn('done')]);
    expect(() => agent.resume({ approvals: { c2: 'approve' } })).toThrow(/'c2', which is not pending.*c1, c3/);
    expect(() => agent.resume({ approvals: { c1: 'yes' as never } })).toThrow(
      /approvals.c1 must be 'approve' or 'deny'/,
    );
  });

  it('re-checks the policy of now: a call the policy now denies is denied, never run', async () => {
    const { snapshot } = await suspendedRun();
    const { agent, runs, client } = reload(snapshot, [textTurn('done')], { write: 'deny', shell: 'ask' });
    await runDeciding(agent.resume(), (event) => agent.approve(event.data.callId));
    expect(runs).toEqual(['run']);
    expect(client.requests[0]?.messages.at(-3)).toEqual({
      role: 'tool',
      callId: 'c1',
      content: "Error: denied: the tool policy denies 'change'",
    });
  });

  it('suspends again when nobody decides, and the journal replays byte for byte', async () => {
    const { snapshot } = await suspendedRun();
    const { agent, session, runs } = reload(snapshot, []);
    const events = await runDeciding(agent.resume(), (event) => {
      if (event.data.callId === 'c3') setTimeout(() => agent.suspend(), 10);
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'suspended' } });
    expect(runs).toEqual([]);
    const replayed = Session.replay(session.journal, session.config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
  });

  it('keeps a decision journaled before the suspend', async () => {
    const made = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'change'])]);
    // c2 is approved while c1 waits (c2 cannot start before c1: it is behind it), then suspend.
    await runDeciding(made.agent.run('go'), (event) => {
      if (event.data.callId !== 'c2') return;
      setTimeout(() => {
        made.agent.approve('c2');
        made.agent.suspend();
      }, 10);
    });
    expect(made.runs).toEqual([]);
    const snapshot = JSON.parse(JSON.stringify(made.session.toJSON()));
    const { agent, runs } = reload(snapshot, [textTurn('done')]);
    const asked: string[] = [];
    await runDeciding(agent.resume(), (event) => {
      asked.push(event.data.callId);
      agent.approve(event.data.callId);
    });
    expect(asked).toEqual(['c1']);
    expect(runs).toEqual(['change', 'change']);
  });
});

describe('a recorded decision is final on resume', () => {
  /** c2 is denied while c1 waits (c2 is behind it, so it is not answered yet), then suspend. */
  async function deniedThenSuspended() {
    const made = approvalAgent([callsTurn(['c1', 'change'], ['c2', 'change'])]);
    await runDeciding(made.agent.run('go'), (event) => {
      if (event.data.callId !== 'c2') return;
      setTimeout(() => {
        made.agent.deny('c2', 'not that file');
        made.agent.suspend();
      }, 10);
    });
    expect(made.session.pendingToolCalls().map((call) => call.callId)).toEqual(['c1', 'c2']);
    return JSON.parse(JSON.stringify(made.session.toJSON()));
  }

  it('a policy that now allows the tool (resume --allow) runs only the undecided call', async () => {
    const snapshot = await deniedThenSuspended();
    const { agent, runs, client } = reload(snapshot, [textTurn('done')], { write: 'allow' });
    const events = await collect(agent.resume());
    expect(events.some((event) => event.type === 'tool_approval_request')).toBe(false);
    expect(runs).toEqual(['change']);
    expect(client.requests[0]?.messages.slice(-2)).toEqual([
      { role: 'tool', callId: 'c1', content: 'change done' },
      { role: 'tool', callId: 'c2', content: 'Error: denied: not that file' },
    ]);
  });

  it('resume({ approvals }) may not overturn it', async () => {
    const snapshot = await deniedThenSuspended();
    const { agent } = reload(snapshot, [textTurn('done')]);
    expect(() => agent.resume({ approvals: { c2: 'approve' } })).toThrow(
      /approvals.c2 is 'approve', but call 'c2' was already denied \(not that file\): a recorded decision is final/,
    );
  });
});

describe('budgets while waiting', () => {
  it('the wall-clock limit ends a run that waits too long, answering the waiting calls', async () => {
    const { agent, runs, session } = approvalAgent([callsTurn(['c1', 'change'])], {
      budget: { maxWallClockMs: 50 },
    });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
    expect(runs).toEqual([]);
    expect(session.pendingToolCalls()).toEqual([]);
    const last = session.journal.filter((entry) => entry.type === 'tool_result').at(-1);
    expect(last).toMatchObject({ callId: 'c1' });
    expect((last as { content: string }).content).toMatch(/^Error: /);
  });

  it('agent.abort() while waiting answers the waiting calls and ends with aborted', async () => {
    const { agent, runs } = approvalAgent([callsTurn(['c1', 'change'])]);
    const events = await runDeciding(agent.run('go'), () => setTimeout(() => agent.abort('stop'), 5));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'aborted' } });
    expect(runs).toEqual([]);
  });
});

describe('loop invariants on approval runs', () => {
  it('hold for a suspended run and for its resumed run', async () => {
    const { events, session, config } = await suspendedRun();
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    const snapshot = JSON.parse(JSON.stringify(session.toJSON()));
    const resumed = reload(snapshot, [textTurn('done')]);
    const more = await runDeciding(resumed.agent.resume(), (event) => resumed.agent.approve(event.data.callId));
    expect(checkLoopInvariants(resumed.session.journal, { config: resumed.session.config, events: more })).toEqual([]);
  });
});
