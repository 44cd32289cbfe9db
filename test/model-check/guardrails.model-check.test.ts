import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from './expect-reported.js';

const check = { budget: { maxTurns: 2 }, maxToolCalls: 2, guardrails: true } as const;

describe('the model checker, with guardrails on the input, the answer and each tool result', () => {
  it('finds the machine keeping every rule, and every stage and stop reason reached', () => {
    const report = modelCheckAgentMachine(check);
    expect(report.violations).toEqual([]);
    expect(report.visited.has('guardingOutput')).toBe(true);
    expect(report.stopReasons.has('guardrail')).toBe(true);
  });

  it('reports a result passed on before its guardrails (the check skipped)', () => {
    const machine = agentMachine.provide({ guards: { resultNeedsGuardrails: () => false } });
    expectReported(modelCheckAgentMachine({ ...check, machine }), [
      ['guarded_results', /result of call 0 was journaled .* before its guardrails' verdict/],
    ]);
  });

  it('reports a tripwire ignored (the verdict read as a pass)', () => {
    const machine = agentMachine.provide({ guards: { guardrailTripped: () => false } });
    expectReported(modelCheckAgentMachine({ ...check, machine }), [
      ['tripwire_ends_run', /'(finish|requestModel|spawned)' after a guardrail stopped the run/],
    ]);
  });
});
