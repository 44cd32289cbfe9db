// The three-level delegation without a store, saved (`toJSON`) while item 2's effect runs three
// levels down: what a process that then died would have left, for the resume tests.
import { Agent, Config, Session, type SessionSnapshot } from '../../../src/index.js';
import { drain } from '../../support/runs.js';
import { delegationClients, leadRegistry } from './delegation.js';

/**
 * Runs the three-level delegation without a store until item 2's effect (three levels down)
 * hangs, and saves the lead's session there, as a process that then dies would have; the run is
 * aborted afterwards. What is saved: item 1 answered, item 2's calls in doubt at every level.
 */
export async function snapshotMidDelegation(): Promise<{ snapshot: SessionSnapshot; effects: number[] }> {
  const clients = delegationClients();
  const effects: number[] = [];
  let saved: SessionSnapshot | undefined;
  const config = new Config();
  const agent = new Agent(config, {
    session: new Session(config, {
      client: clients.lead,
      id: 'lead',
      registry: leadRegistry(clients, async (n, { signal }) => {
        effects.push(n);
        if (n !== 2) return;
        saved = JSON.parse(JSON.stringify(agent.session)) as SessionSnapshot;
        agent.abort();
        await new Promise((resolve) => signal?.addEventListener('abort', resolve));
      }),
    }),
  });
  await drain(agent.run('write the report'));
  if (saved === undefined) throw new Error('the delegation never reached item 2');
  return { snapshot: saved, effects };
}
