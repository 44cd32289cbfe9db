import { describe, expect, it } from 'vitest';
import { Agent, Config, type JournalEntry, Session, type SessionSnapshot } from '../../src/index.js';
import { drain } from '../support/runs.js';
import { delegationClients, LEAD_ANSWER, leadRegistry, TURN_USAGE } from './support/delegation.js';
import { snapshotMidDelegation } from './support/mid-delegation.js';

const lastOf = (journal: readonly JournalEntry[] | undefined) => journal?.at(-1)?.type;

describe('resuming a delegation without a store', () => {
  it('the lead keeps its children in memory, at every depth, and saves them with toJSON', async () => {
    const clients = delegationClients();
    const config = new Config();
    const session = new Session(config, { client: clients.lead, registry: leadRegistry(clients, () => {}), id: 'p' });
    const events = await drain(new Agent(config, { session }).run('write the report'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: LEAD_ANSWER } });
    const children = session.toJSON().children ?? {};
    expect(Object.keys(children).sort()).toEqual(['p.t1.r1', 'p.t1.r1.t1.a1', 'p.t2.r2', 'p.t2.r2.t1.a1']);
    expect(lastOf(children['p.t2.r2.t1.a1'])).toBe('agent_end');
  });

  it('a resumed lead continues its in-doubt child from the child’s saved journal, re-running no finished step', async () => {
    const { snapshot, effects } = await snapshotMidDelegation();
    expect(effects).toEqual([1, 2]);
    // Saved mid-call: item 2's researcher and analyst had started and not ended.
    expect(lastOf(snapshot.children?.['lead.t2.r2'])).not.toMatch(/^agent_/);
    expect(lastOf(snapshot.children?.['lead.t2.r2.t1.a1'])).not.toMatch(/^agent_/);

    const clients = delegationClients();
    const config = new Config();
    const again: number[] = [];
    const session = Session.fromJSON(snapshot, config, {
      client: clients.lead,
      registry: leadRegistry(clients, (n) => {
        again.push(n);
      }),
    });
    expect(session.pendingToolCalls().map((call) => call.callId)).toEqual(['r2']);
    const events = await drain(new Agent(config, { session }).resume());

    const end = events.at(-1);
    expect(end?.type).toBe('agent_end');
    expect(end?.type === 'agent_end' ? end.data.response : '').toMatch(
      /^report: research 1: analysis 1: effect 1 done \| research 2: analysis 2: Error: interrupted/,
    );
    // The researcher and the analyst of item 2 each asked their model once more, for their
    // answer: their first turns were not asked again, the effect (kind write, in doubt) did not
    // run again, and item 1's finished children were not run at all.
    expect(again).toEqual([]);
    expect([clients.lead.calls, clients.researcher.calls, clients.analyst.calls]).toEqual([1, 1, 1]);
    // Every turn of the tree counted once: 3 of the lead's, 2 per researcher, 2 per analyst.
    expect(session.totalUsage.totalTokens).toBe(11 * TURN_USAGE.totalTokens);
    const resumed = session.toJSON().children ?? {};
    expect(resumed['lead.t1.r1']).toEqual(snapshot.children?.['lead.t1.r1']);
    expect(lastOf(resumed['lead.t2.r2'])).toBe('agent_end');
    expect(resumed['lead.t2.r2']?.slice(0, snapshot.children?.['lead.t2.r2']?.length)).toEqual(
      snapshot.children?.['lead.t2.r2'],
    );
  });

  it('Session.replay takes the children too; without them, the in-doubt child runs again from its task', async () => {
    const { snapshot } = await snapshotMidDelegation();
    const run = async (children: SessionSnapshot['children']) => {
      const clients = delegationClients();
      const config = new Config();
      const session = Session.replay(snapshot.journal, config, {
        client: clients.lead,
        registry: leadRegistry(clients, () => {}),
        ...(children === undefined ? {} : { children }),
      });
      await drain(new Agent(config, { session }).resume());
      return [clients.researcher.calls, clients.analyst.calls];
    };
    expect(await run(snapshot.children)).toEqual([1, 1]);
    expect(await run(undefined)).toEqual([2, 2]);
  });

  it('refuses saved children that are not journals (invalid_journal naming the child)', () => {
    const config = new Config();
    expect(() => Session.replay([], config, { children: { c: [{ type: 'nope' }] } as never })).toThrow(
      /child session 'c'/,
    );
    expect(() => Session.fromJSON({ version: 4, savedAt: '', journal: [], children: [] }, config)).toThrow(
      expect.objectContaining({ reason: 'invalid_journal' }),
    );
  });
});
