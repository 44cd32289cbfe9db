import { describe, expect, it } from 'vitest';
import { byDepth, type ModelCheckReport, modelCheckAgentMachine } from '../../src/testing/index.js';
import { SCENARIOS } from './scenarios.js';

function readable(report: ModelCheckReport): string {
  return report.violations.map((v) => `${v.problem}\n    path: ${v.path.join(' → ') || '(start)'}`).join('\n');
}

const reports = new Map<string, ModelCheckReport>();
/** Deep searches take minutes, not seconds. */
const timeout = byDepth({ default: 20_000, deep: 600_000 });

describe('agentMachine, explored exhaustively', () => {
  for (const [name, options] of Object.entries(SCENARIOS)) {
    it(
      `keeps every loop invariant on every path (${name})`,
      () => {
        const report = modelCheckAgentMachine(options);
        reports.set(name, report);
        expect(readable(report)).toBe('');
        expect(report.states).toBeGreaterThan(10);
      },
      timeout,
    );
  }

  it('enters every state of the machine', () => {
    const visited = new Set([...reports.values()].flatMap((report) => [...report.visited]));
    expect([...visited].sort()).toEqual([
      'awaitingModel',
      'budgetCheck',
      'done',
      'error',
      'executingTools',
      'observing',
    ]);
  });

  it('reaches every stop reason and every soft limit across the budgets', () => {
    const all = [...reports.values()];
    const reasons = new Set(all.flatMap((report) => [...report.stopReasons]));
    const soft = new Set(all.flatMap((report) => [...report.softLimits]));
    expect([...reasons].sort()).toEqual([
      'aborted',
      'cost_budget',
      'internal_error',
      'mcp_error',
      'model_error',
      'time_budget',
      'token_budget',
      'turn_budget',
    ]);
    expect([...soft].sort()).toEqual(['cost', 'time', 'tokens', 'turns']);
  });
});
