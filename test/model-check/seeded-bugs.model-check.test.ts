import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { modelCheckAgentMachine } from '../../src/testing/index.js';

const budget = { maxTurns: 3, softLimitRatio: 0.5 };

function problemsOf(machine: typeof agentMachine): string[] {
  return modelCheckAgentMachine({ budget, machine, maxToolCalls: 2 }).violations.map((v) => v.problem);
}

describe('the model checker, on machines with a seeded bug', () => {
  it('finds nothing wrong with the real machine', () => {
    expect(problemsOf(agentMachine)).toEqual([]);
  });

  it('catches leaving executingTools before every result is in', () => {
    const broken = agentMachine.provide({ guards: { allSettled: () => true } });
    expect(problemsOf(broken)).toContain('observations appended with 1 result(s) missing');
  });

  it('catches a final answer after a turn that asked for tools', () => {
    const broken = agentMachine.provide({ guards: { turnAskedForTools: () => false } });
    expect(problemsOf(broken)).toContain('done followed a turn that asked for tools');
  });

  it('catches a model request after an abort', () => {
    const broken = agentMachine.provide({ guards: { isAborting: () => false } });
    expect(problemsOf(broken)).toContain('a model request was made after an abort');
  });

  it('catches a soft-limit warning given twice', () => {
    const broken = agentMachine.provide({ guards: { softLimitReached: () => true } });
    expect(problemsOf(broken)).toContain('a second soft-limit warning on one path');
  });

  it('prints the shortest path to each violation', () => {
    const broken = agentMachine.provide({ guards: { turnAskedForTools: () => false } });
    const report = modelCheckAgentMachine({ budget, machine: broken, maxToolCalls: 1 });
    const violation = report.violations.find((v) => v.problem === 'done followed a turn that asked for tools');
    expect(violation?.path).toEqual(['model(S u0 t0)']);
  });

  it('refuses a budget without maxTurns, which would make the search unbounded', () => {
    expect(() => modelCheckAgentMachine({ budget: { maxCost: 1 } })).toThrow(/maxTurns/);
  });
});
