import { describe, expect, it } from 'vitest';
import { agentMachine, Budget } from '../../src/index.js';
import { MACHINE_RULES, modelCheckAgentMachine } from '../../src/testing/index.js';
import { APPROVAL_BUGS } from './approval-bugs.js';
import { expectReported } from './expect-reported.js';
import {
  BUDGET_BUGS,
  GUARD_BUGS,
  GUARDRAIL_BUGS,
  SCHEDULE_BUGS,
  turnNotCounted,
  VARIANT_BUGS,
} from './planted-bugs.js';
import { POLICY_BUGS } from './policy-bugs.js';
import { REASONING_BUGS } from './reasoning-bugs.js';

describe('the model checker, on machines with a planted bug', () => {
  it('finds nothing wrong with the real machine on the budgets the bugs are planted under', () => {
    const checks = new Map(
      [...GUARD_BUGS, ...BUDGET_BUGS, ...VARIANT_BUGS].map(({ check: { machine: _machine, ...check } }) => {
        const options = { ...check, budget: check.budget instanceof Budget ? check.budget.options() : check.budget };
        return [JSON.stringify(options), options];
      }),
    );
    for (const options of checks.values()) expect(modelCheckAgentMachine(options).violations).toEqual([]);
  });

  describe('guards off by one, or constant (agentMachine.provide)', () => {
    for (const { bug, check, reported } of GUARD_BUGS) {
      it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
    }
  });

  describe('budget comparisons and precedence (a Budget whose checks are changed)', () => {
    for (const { bug, check, reported } of BUDGET_BUGS) {
      it(`reports: ${bug}`, () => expectReported(modelCheckAgentMachine(check), reported));
    }
  });

  it('reports a machine that never reaches a final state within the bound, with the path', () => {
    const broken = agentMachine.provide({ guards: { hardLimitReached: () => false } });
    const report = modelCheckAgentMachine({ budget: { maxTurns: 3 }, machine: broken, maxToolCalls: 2 });
    expect(report.maxSteps).toBe(10);
    const bound = report.violations.find((v) => v.rule === 'step_bound');
    expect(bound?.problem).toBe('no final state within 10 steps');
    expect(bound?.path).toHaveLength(10);
    const turns = report.violations.find((v) => v.rule === 'hard_limit');
    expect(turns?.path).toEqual([
      'model(S u10+5 t0)',
      'settle#0(ok t0)',
      'model(S u10+5 t0)',
      'settle#0(ok t0)',
      'model(S u10+5 t0)',
      'settle#0(ok t0)',
    ]);
  });

  it('reports a run that can go round a cycle forever, with the cycle', () => {
    // Nothing grows: the turn is not counted and the usage is zero, so the state repeats.
    const zero = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const report = modelCheckAgentMachine({
      budget: { maxTurns: 2 },
      maxToolCalls: 1,
      usages: [zero],
      machine: turnNotCounted,
    });
    const cycle = report.violations.find((v) => v.rule === 'step_bound');
    expect(cycle?.problem).toBe('no final state within 5 steps: the run can go round a cycle forever');
    expect(cycle?.path).toEqual(['model(S u0+0 t0)', 'settle#0(ok t0)']);
  });

  it('prints the shortest path to each violation', () => {
    const broken = agentMachine.provide({ guards: { turnAskedForTools: () => false } });
    const report = modelCheckAgentMachine({ budget: { maxTurns: 3 }, machine: broken, maxToolCalls: 1 });
    const violation = report.violations.find((v) => v.problem === 'done followed a turn that asked for tools');
    expect(violation?.path).toEqual(['model(S u10+5 t0)']);
  });

  it('refuses a budget without maxTurns, which would make the search unbounded', () => {
    expect(() => modelCheckAgentMachine({ budget: { maxCost: 1 } })).toThrow(/maxTurns/);
  });

  it('has no silent rule: every built-in rule reports one of the planted bugs', () => {
    const planted = [
      ...GUARD_BUGS,
      ...BUDGET_BUGS,
      ...VARIANT_BUGS,
      ...SCHEDULE_BUGS,
      ...APPROVAL_BUGS,
      ...POLICY_BUGS,
      ...REASONING_BUGS,
      ...GUARDRAIL_BUGS,
    ];
    const rules = new Set(planted.flatMap((bug) => bug.reported.map(([rule]) => rule)));
    expect([...MACHINE_RULES].filter((rule) => !rules.has(rule))).toEqual([]);
  });
});
