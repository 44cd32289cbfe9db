import { describe, expect, it } from 'vitest';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { APPROVAL_BUGS, APPROVAL_CHECKS } from './approval-bugs.js';
import { expectReported } from './expect-reported.js';

describe('the model checker on awaitingApproval', () => {
  it('finds no violation in the real machine, with calls that ask, are denied, and resumed calls', () => {
    const report = modelCheckAgentMachine({
      budget: { maxTurns: 1 },
      maxToolCalls: 2,
      permissions: ['allow', 'ask', 'deny'],
    });
    expect(report.violations).toEqual([]);
    expect(report.visited).toContain('awaitingApproval');
    expect(report.stopReasons).toContain('suspended');
    for (const check of APPROVAL_CHECKS) expect(modelCheckAgentMachine(check).violations).toEqual([]);
  });

  it('explores a resumed run whose pending call was approved before the suspend', () => {
    const report = modelCheckAgentMachine({
      budget: { maxTurns: 1 },
      resume: {
        calls: [
          { callId: 'r0', name: 'change', arguments: {} },
          { callId: 'r1', name: 'change', arguments: {} },
        ],
        concurrencySafe: [false, false],
        permissions: ['ask', 'ask'],
        decisions: [{ approved: true }, undefined],
      },
    });
    expect(report.violations).toEqual([]);
  });

  for (const { bug, check, reported } of APPROVAL_BUGS) {
    // A bug of the resumed run's start shows before any event: its path is empty.
    const atStart = check.resume !== undefined;
    it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported, { atStart }));
  }
});
