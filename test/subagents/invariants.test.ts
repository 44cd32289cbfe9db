import { describe, expect, it } from 'vitest';
import { Agent, Config, type JournalEntry, openStore, Session } from '../../src/index.js';
import { readSessionTree, type SessionTree } from '../../src/subagents.js';
import { checkDelegationInvariants, modelCheckAgentMachine } from '../../src/testing/index.js';
import { drain } from '../support/runs.js';
import { type DelegationOptions, delegationClients, leadRegistry } from './support/delegation.js';

/** Runs the delegation on a memory store and reads the tree back. */
async function delegationTree(options: DelegationOptions = {}, config = new Config()): Promise<SessionTree> {
  const store = await openStore('memory:');
  const clients = delegationClients();
  const session = new Session(config, {
    client: clients.lead,
    registry: leadRegistry(clients, () => {}, options),
    store,
    id: 'lead',
  });
  await drain(new Agent(config, { session }).run('write the report'));
  await session.close();
  const tree = await readSessionTree(store, 'lead');
  await store.close();
  return tree;
}

/** The tree with one session's journal changed. */
function tampered(
  tree: SessionTree,
  id: string,
  change: (journal: readonly JournalEntry[]) => JournalEntry[],
): SessionTree {
  const journals = new Map(tree.journals);
  journals.set(id, change(tree.journals.get(id) ?? []));
  return { ...tree, journals };
}

const rules = (tree: SessionTree) => checkDelegationInvariants(tree).map((v) => `${v.rule} @ ${v.session}`);

describe('checkDelegationInvariants: a parent and its children', () => {
  it('a three-level delegation keeps every invariant', async () => {
    const tree = await delegationTree();
    expect(tree.journals.size).toBe(5);
    expect(checkDelegationInvariants(tree)).toEqual([]);
  });

  it("a child's budget stop is its parent's tool error: the tree keeps the invariants", async () => {
    const tree = await delegationTree({ analystConfig: new Config({ maxTurns: 1 }) });
    const analyst = tree.journals.get('lead.t1.r1.t1.a1');
    expect(analyst?.at(-1)).toMatchObject({ type: 'agent_error', reason: 'turn_budget' });
    expect(checkDelegationInvariants(tree)).toEqual([]);
  });

  it("the parent stopping on its children's usage keeps them too", async () => {
    const tree = await delegationTree({}, new Config({ budget: { maxTotalTokens: 70 } }));
    expect(tree.journals.get('lead')?.at(-1)).toMatchObject({ type: 'agent_error', reason: 'token_budget' });
    expect(checkDelegationInvariants(tree)).toEqual([]);
  });

  it('finds a parent result that is not the child’s answer, and a budget stop passed off as an answer', async () => {
    const tree = await delegationTree({ analystConfig: new Config({ maxTurns: 1 }) });
    const forged = tampered(tree, 'lead.t1.r1', (journal) =>
      journal.map((entry) =>
        entry.type === 'tool_result' && entry.callId === 'a1' ? { ...entry, content: 'all fine' } : entry,
      ),
    );
    expect(rules(forged)).toContain('child_budget @ lead.t1.r1');
    const other = tampered(tree, 'lead', (journal) =>
      journal.map((entry) =>
        entry.type === 'tool_result' && entry.callId === 'r1' ? { ...entry, content: 'made up' } : entry,
      ),
    );
    expect(rules(other)).toEqual(['child_result @ lead']);
  });

  it('finds usage counted twice or lost, and a call answered before its child ended', async () => {
    const tree = await delegationTree();
    const doubled = tampered(tree, 'lead', (journal) =>
      journal.map((entry) =>
        entry.type === 'tool_result' && entry.usage !== undefined
          ? { ...entry, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } }
          : entry,
      ),
    );
    expect(rules(doubled)).toEqual(['child_usage @ lead', 'child_usage @ lead']);
    const cut = tampered(tree, 'lead.t2.r2', (journal) => journal.slice(0, -1));
    expect(rules(cut)).toContain('child_answered @ lead');
  });
});

describe('the model checker with sub-agent calls (settles carrying a child’s usage)', () => {
  it("explores a child's usage stopping the parent, on every path, with no violation", () => {
    const report = modelCheckAgentMachine({
      budget: { maxTurns: 2, maxTotalTokens: 40 },
      maxToolCalls: 1,
      usages: [{ promptTokens: 5, completionTokens: 5, totalTokens: 10 }],
      childUsage: { promptTokens: 20, completionTokens: 15, totalTokens: 35 },
    });
    expect(report.violations).toEqual([]);
    expect([...report.stopReasons]).toContain('token_budget');
  });
});
