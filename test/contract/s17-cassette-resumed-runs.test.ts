import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  type ModelClient,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A model turn calling each `[callId, name, arguments]`. */
const calls = (...wanted: [string, string, Record<string, number>][]) => [
  ...wanted.map(([callId, name, args]) => StreamEvent.toolCallComplete({ callId, name, arguments: args })),
  StreamEvent.messageComplete(usage(5, 2)),
];

/** The user's code: an agent with a write tool `put` and a read tool `get`, under `permissions`. */
function agentMaker(permissions?: Record<string, 'allow' | 'ask' | 'deny'>) {
  const cwd = tempWorkspace();
  return (client: ModelClient): Agent => {
    const config = new Config({ cwd, ...(permissions === undefined ? {} : { permissions }) });
    const tools = new ToolRegistry(config).register(
      defineTool({
        name: 'put',
        description: 'Store a value.',
        kind: 'write',
        schema: z.object({ v: z.number() }),
        execute: ({ params }) => `put ${params.v}`,
      }),
      defineTool({
        name: 'get',
        description: 'Read a value.',
        kind: 'read',
        schema: z.object({ v: z.number() }),
        execute: ({ params }) => `got ${params.v}`,
      }),
    );
    return new Agent(config, { client, tools, session: new Session(config) });
  };
}

/** Drains a run, answering each approval request with `decide` (on the next microtask). */
async function drive(agent: Agent, run: AsyncIterable<AgentEvent>, decide: (callId: string, asked: number) => void) {
  let asked = 0;
  for await (const event of run) {
    if (event.type !== 'tool_approval_request') continue;
    const { callId } = event.data as { callId: string };
    const n = ++asked;
    queueMicrotask(() => decide(callId, n));
  }
  return agent.session.journal;
}

async function expectUnchangedReplayPasses(recorded: Agent, make: (client: ModelClient) => Agent) {
  const report = await replayCassette(recorded.session, { makeAgent: make });
  expect(report.ok, formatCassetteReport(report)).toBe(true);
}

describe('SPEC §17: an unchanged run passes its recording, however the recorded session went', () => {
  it('passes when the model reused a call id in a later turn (tools answered from the recording)', async () => {
    const make = agentMaker();
    const agent = make(
      new ScriptedClient([calls(['c1', 'get', { v: 1 }]), calls(['c1', 'get', { v: 2 }]), textTurn('done')]),
    );
    await collect(agent.run('go'));
    await expectUnchangedReplayPasses(agent, make);
  });

  it('passes when a reused call id was denied in one turn and approved in the next', async () => {
    const make = agentMaker({ put: 'ask' });
    const agent = make(
      new ScriptedClient([calls(['c1', 'put', { v: 1 }]), calls(['c1', 'put', { v: 2 }]), textTurn('done')]),
    );
    await drive(agent, agent.run('go'), (id, n) => (n === 1 ? agent.deny(id, 'not that one') : agent.approve(id)));
    expect(agent.session.journal.filter((entry) => entry.type === 'approval_decision')).toHaveLength(2);
    await expectUnchangedReplayPasses(agent, make);
  });

  it('passes a run suspended at an approval and resumed, asked again', async () => {
    const make = agentMaker({ put: 'ask' });
    const agent = make(new ScriptedClient([calls(['c1', 'put', { v: 1 }], ['c2', 'get', { v: 2 }]), textTurn('done')]));
    await drive(agent, agent.run('go'), () => agent.suspend());
    await drive(agent, agent.resume(), (id) => agent.approve(id));
    expect(agent.session.journal.at(-1)?.type).toBe('agent_end');
    await expectUnchangedReplayPasses(agent, make);
  });

  it('passes a run suspended at an approval and resumed with decisions given up front', async () => {
    const make = agentMaker({ put: 'ask' });
    const agent = make(new ScriptedClient([calls(['c1', 'put', { v: 1 }], ['c2', 'put', { v: 2 }]), textTurn('done')]));
    // c1 approved and run; then, while c2 waits, the run is suspended.
    for await (const event of agent.run('go')) {
      if (event.type === 'tool_approval_request' && (event.data as { callId: string }).callId === 'c1')
        queueMicrotask(() => agent.approve('c1'));
      if (event.type === 'tool_call_complete') queueMicrotask(() => expect(agent.suspend()).toBe(true));
    }
    expect(agent.session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'suspended' });
    await collect(agent.resume({ approvals: { c2: 'deny' } }));
    expect(agent.session.journal.at(-1)?.type).toBe('agent_end');
    await expectUnchangedReplayPasses(agent, make);
  });

  it('passes a run suspended at an approval and followed by a new message instead of a resume', async () => {
    const make = agentMaker({ put: 'ask' });
    const agent = make(new ScriptedClient([calls(['c1', 'put', { v: 1 }]), textTurn('done')]));
    await drive(agent, agent.run('go'), () => agent.suspend());
    await collect(agent.run('never mind'));
    expect(agent.session.journal.at(-1)?.type).toBe('agent_end');
    await expectUnchangedReplayPasses(agent, make);
  });

  it('passes a run that failed with model_error and was resumed', async () => {
    const make = agentMaker();
    const agent = make(
      new ScriptedClient([calls(['c1', 'get', { v: 1 }]), [StreamEvent.error('overloaded')], textTurn('done')]),
    );
    expect((await collect(agent.run('go'))).at(-1)).toMatchObject({ data: { reason: 'model_error' } });
    expect((await collect(agent.resume())).at(-1)?.type).toBe('agent_end');
    await expectUnchangedReplayPasses(agent, make);
  });

  it('still reports a resumed session whose code changed: the call no longer asks', async () => {
    const agent = agentMaker({ put: 'ask' })(new ScriptedClient([calls(['c1', 'put', { v: 1 }]), textTurn('done')]));
    await drive(agent, agent.run('go'), () => agent.suspend());
    await drive(agent, agent.resume(), (id) => agent.approve(id));
    const report = await replayCassette(agent.session, { makeAgent: agentMaker({ put: 'allow' }) });
    expect(report.ok).toBe(false);
    expect(report.divergence?.step.entryIndex).toBe(5);
  });

  it('never waits: a replay whose suspended run no longer asks about a decided call still suspends', async () => {
    const agent = agentMaker({ put: 'ask', get: 'ask' })(
      new ScriptedClient([calls(['c1', 'get', { v: 1 }], ['c2', 'put', { v: 2 }]), textTurn('done')]),
    );
    // c1 approved and run; then, while c2 waits, the run is suspended; resumed, c2 is approved.
    for await (const event of agent.run('go')) {
      if (event.type === 'tool_approval_request' && (event.data as { callId: string }).callId === 'c1')
        queueMicrotask(() => agent.approve('c1'));
      if (event.type === 'tool_call_complete') queueMicrotask(() => expect(agent.suspend()).toBe(true));
    }
    await drive(agent, agent.resume(), (id) => agent.approve(id));
    expect(agent.session.journal.at(-1)?.type).toBe('agent_end');
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the replay waited for a decision')), 3000);
    });
    const replay = replayCassette(agent.session, { makeAgent: agentMaker({ put: 'ask' }) });
    const report = await Promise.race([replay, hung]).finally(() => clearTimeout(timer));
    expect(report.ok).toBe(false);
  });

  it('reports, never throws, a recorded resume the new run has nothing left for', async () => {
    const agent = agentMaker({ put: 'ask' })(new ScriptedClient([calls(['c1', 'put', { v: 1 }]), textTurn('done')]));
    await drive(agent, agent.run('go'), () => agent.suspend());
    await drive(agent, agent.resume(), (id) => agent.approve(id));
    // Allowed now, the first run ends with the answer, and the recorded resume finds nothing to resume.
    const report = await replayCassette(agent.session, {
      makeAgent: agentMaker({ put: 'allow' }),
      continueOnDivergence: true,
    });
    expect(report.ok).toBe(false);
    expect(report.divergences?.length).toBeGreaterThan(0);
  });
});
