import { describe, expect, it } from 'vitest';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';
import { GUARDRAIL_BUGS } from './planted-bugs.js';

describe('the model checker, with guardrails on the input, the answer and each tool result', () => {
  it('finds the machine keeping every rule, with guardingOutput and the stop reason guardrail reached', () => {
    const report = modelCheckAgentMachine({ budget: { maxTurns: 2 }, maxToolCalls: 2, guardrails: true });
    expect(report.violations).toEqual([]);
    expect(report.visited.has('guardingOutput')).toBe(true);
    expect(report.stopReasons.has('guardrail')).toBe(true);
  });

  for (const { bug, check, reported } of GUARDRAIL_BUGS) {
    it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
  }
});
