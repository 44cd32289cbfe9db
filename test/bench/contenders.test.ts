import { describe, expect, it } from 'vitest';
import { bareContender, bareLoop } from '../../bench/bare-loop.js';
import { newAgent, runAgent, sharedSetup } from '../../bench/harness-contender.js';
import { LeanClient } from '../../bench/lean-client.js';
import { machineOnlyContender } from '../../bench/machine-only-contender.js';
import { CONTRACT_SHAPE, skeletonContender } from '../../bench/skeleton-machine.js';
import { PROMPT } from '../../bench/workload.js';

describe('the benchmark workload', () => {
  it('runs on the harness: T checkpoint calls, each validated and answered, then `complete`', async () => {
    const agent = newAgent(sharedSetup(3));
    const { answer, turns } = await runAgent(agent);
    expect(answer).toBe('complete');
    expect(turns).toBe(4);
    const tools = agent.session.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['step 1 complete', 'step 2 complete', 'step 3 complete']);
    expect(agent.session.totalUsage).toEqual({ promptTokens: 20, completionTokens: 8, totalTokens: 28 });
  });

  it('reuses one shared setup for many sessions, each with its own journal', async () => {
    const shared = sharedSetup(2);
    const first = newAgent(shared);
    const second = newAgent(shared);
    await runAgent(first);
    await runAgent(second);
    expect(second.session.journal).toEqual(first.session.journal);
    expect(second.session.journal).not.toBe(first.session.journal);
  });

  it('runs on the bare loop with the same messages as the harness', async () => {
    const agent = newAgent(sharedSetup(3));
    await runAgent(agent);
    const bare = await bareLoop(new LeanClient(3), PROMPT, 4);
    expect(bare.answer).toBe('complete');
    expect(bare.turns).toBe(4);
    expect(bare.messages).toEqual(agent.session.messages);
    expect(bare.usage).toEqual(agent.session.totalUsage);
  });

  it('counts T + 1 model turns for every contender, and runs 50 concurrent sessions', async () => {
    const contractFloor = skeletonContender(CONTRACT_SHAPE, 'contract floor');
    for (const contender of [bareContender(), machineOnlyContender(), skeletonContender(), contractFloor]) {
      expect(await contender.run(5)).toBe(6);
    }
    const shared = sharedSetup(10);
    const agents = Array.from({ length: 50 }, () => newAgent(shared));
    const results = await Promise.all(agents.map(runAgent));
    expect(results.every((r) => r.answer === 'complete' && r.turns === 11)).toBe(true);
  });
});
