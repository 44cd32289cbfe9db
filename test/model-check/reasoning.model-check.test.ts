import { describe, expect, it } from 'vitest';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';
import { REASONING_BUGS, REASONING_CHECK, REASONING_GATED_CHECK } from './reasoning-bugs.js';

describe('the model checker: reasoning_integrity', () => {
  it('finds no violation in the real machine with reasoning turns', () => {
    const report = modelCheckAgentMachine(REASONING_CHECK);
    expect(report.violations).toEqual([]);
    expect(report.visited).toContain('done');
  });

  it('finds no violation in the real machine with reasoning turns whose calls ask for approval', () => {
    const report = modelCheckAgentMachine(REASONING_GATED_CHECK);
    expect(report.violations).toEqual([]);
    expect(report.visited).toContain('awaitingApproval');
    expect(report.visited).toContain('done');
  });

  for (const { bug, check, reported } of REASONING_BUGS) {
    it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
  }
});
