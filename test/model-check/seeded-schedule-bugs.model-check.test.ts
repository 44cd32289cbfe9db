import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectReported } from './expect-reported.js';
import { type ReadyRange, SCHEDULE_BUGS } from './planted-bugs.js';

const SCHEDULE = '../../src/machines/tool-schedule.js';

/** The agent machine and the checker, loaded afresh with `readyRange` replaced. */
async function withSchedule(readyRange: ReadyRange) {
  vi.resetModules();
  vi.doMock(SCHEDULE, () => ({ readyRange }));
  const { agentMachine } = await import('../../src/machines/agent-machine.js');
  const { modelCheckAgentMachine } = await import('../../src/testing/index.js');
  // Three calls in one turn: the smallest turn where a batch of two reads can be half done.
  return modelCheckAgentMachine({ budget: { maxTurns: 1 }, maxToolCalls: 3, machine: agentMachine });
}

afterEach(() => {
  vi.doUnmock(SCHEDULE);
  vi.resetModules();
});

describe('the model checker, on a machine whose tool schedule has a planted bug', () => {
  it('finds nothing wrong with the real schedule', async () => {
    const { readyRange } = await import('../../src/machines/tool-schedule.js');
    expect((await withSchedule(readyRange)).violations).toEqual([]);
  });

  for (const { bug, readyRange, reported } of SCHEDULE_BUGS) {
    it(`reports: ${bug}`, async () => expectReported(await withSchedule(readyRange), reported));
  }
});
