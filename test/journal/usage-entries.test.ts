import { describe, expect, it } from 'vitest';
import { ScriptedClient, StreamEvent, type TokenUsage } from '../../src/index.js';
import { tokenUsage } from '../../src/prices.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function usageEntries(journal: readonly { type: string }[]): unknown[] {
  return journal
    .filter((entry) => entry.type === 'usage')
    .map((entry) => (entry as unknown as { usage: unknown }).usage);
}

describe('usage entries', () => {
  it('keep what the model reported, even when the client changes its object afterwards', async () => {
    const reported = { promptTokens: 3, completionTokens: 4, totalTokens: 7 };
    const client = new ScriptedClient([[StreamEvent.textDelta('ok'), StreamEvent.messageComplete(reported)]]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    await collect(agent.run('go'));
    reported.promptTokens = 1000;
    const [usage] = usageEntries(agent.session.journal) as TokenUsage[];
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 });
    expect(Object.isFrozen(usage)).toBe(true);
    expect(agent.session.totalUsage.promptTokens).toBe(3);
  });

  it('share a frozen usage of exactly the three counts, and copy one that carries more keys', async () => {
    const exact = tokenUsage(2, 5);
    const extra = Object.freeze({ promptTokens: 1, completionTokens: 1, totalTokens: 2, cost: 9 });
    const client = new ScriptedClient([
      [StreamEvent.textDelta('a'), StreamEvent.messageComplete(exact)],
      [StreamEvent.textDelta('b'), StreamEvent.messageComplete(extra)],
    ]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    await collect(agent.run('one'));
    await collect(agent.run('two'));
    const [first, second] = usageEntries(agent.session.journal);
    expect(Object.isFrozen(exact)).toBe(true);
    expect(first).toBe(exact);
    expect(second).toEqual({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    expect(JSON.stringify(agent.session.journal)).not.toContain('cost');
  });
});
