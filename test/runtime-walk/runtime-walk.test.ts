import { describe, expect, it } from 'vitest';
import {
  boundaryScenarios,
  RUNTIME_RULES,
  RUNTIME_SCENARIOS,
  type RuntimeRule,
  type RuntimeScenario,
  walkRuntime,
} from '../../src/testing/index.js';
import { RUNTIME_BUGS } from './runtime-bugs.js';

describe('the runtime walk, on the real agent', () => {
  it('finds nothing wrong on any path of the default and boundary scenarios', async () => {
    const scenarios = [...RUNTIME_SCENARIOS, ...(await boundaryScenarios())];
    const report = await walkRuntime({ scenarios });
    expect(report.findings.map((f) => `[${f.rule}] ${f.problem}\n${f.path.join('\n')}`)).toEqual([]);
    // Every scenario is cut at each of its entries as a crash, and forked at its fork points.
    expect(report.paths).toBeGreaterThan(scenarios.length * 20);
    expect(report.entries).toBeGreaterThan(report.paths * 10);
  });

  it('has every limit at limit − 1, at the limit and at limit + 1', async () => {
    const names = (await boundaryScenarios()).map((scenario) => scenario.name);
    for (const limit of ['turns', 'tokens', 'cost', 'context', 'invalid calls', 'output retries', 'parallel cap']) {
      const around = names.filter((name) => name.startsWith(`${limit} at `));
      const boundary = Number(/\(boundary (\d+)\)/.exec(around[0] ?? '')?.[1]);
      expect(around).toEqual(
        [boundary - 1, boundary, boundary + 1].map((value) => `${limit} at ${value} (boundary ${boundary})`),
      );
    }
  });

  it('stops each limit exactly at its boundary', async () => {
    const scenarios = await boundaryScenarios();
    const ends = new Map<string, string>();
    for (const scenario of scenarios) {
      const report = await walkRuntime({
        scenarios: [scenario],
        crashes: 0,
        forks: 'none',
        rules: [endOf(ends, scenario)],
      });
      expect(report.findings).toEqual([]);
      expect(report.paths).toBe(1);
    }
    expect(Object.fromEntries(ends)).toEqual({
      'turns at 2 (boundary 3)': 'turn_budget',
      'turns at 3 (boundary 3)': 'end',
      'turns at 4 (boundary 3)': 'end',
      'tokens at 79 (boundary 80)': 'token_budget',
      'tokens at 80 (boundary 80)': 'end',
      'tokens at 81 (boundary 80)': 'end',
      'cost at 79 (boundary 80)': 'cost_budget',
      'cost at 80 (boundary 80)': 'end',
      'cost at 81 (boundary 80)': 'end',
      ...contextEnds(scenarios),
      'invalid calls at 1 (boundary 2)': 'invalid_tool_calls',
      'invalid calls at 2 (boundary 2)': 'invalid_tool_calls',
      'invalid calls at 3 (boundary 2)': 'end',
      'output retries at 1 (boundary 2)': 'output_invalid',
      'output retries at 2 (boundary 2)': 'end',
      'output retries at 3 (boundary 2)': 'end',
      'parallel cap at 2 (boundary 3)': 'end',
      'parallel cap at 3 (boundary 3)': 'end',
      'parallel cap at 4 (boundary 3)': 'end',
    });
  });

  it('refuses a scenario whose model (or sub-agent) stalls, naming the turn', async () => {
    const stall = { kind: 'stall' as const, text: [] };
    await expect(walkRuntime({ scenarios: [{ name: 'hangs', script: [stall] }] })).rejects.toThrow(
      "walkRuntime: scenario 'hangs' turn 1 stalls: the walk has no clock to end it",
    );
    const sub = { name: 'helper', script: [RUNTIME_SCENARIOS[0]?.script[1] ?? stall, stall] };
    await expect(walkRuntime({ scenarios: [{ name: 'deep', script: [], subAgent: sub }] })).rejects.toThrow(
      "walkRuntime: scenario 'deep' (sub-agent 'helper') turn 2 stalls",
    );
  });

  it('names each of its built-in rules, and each reports a planted bug (none is vacuous)', () => {
    const planted = new Set(RUNTIME_BUGS.map((bug) => bug.rule));
    expect(Object.keys(RUNTIME_RULES).filter((rule) => !planted.has(rule))).toEqual([]);
  });
});

/** A rule that never fails: it notes how the (whole) run of `scenario` ended, and for the context whether it compacted. */
function endOf(ends: Map<string, string>, scenario: RuntimeScenario): RuntimeRule {
  return (view) => {
    const last = view.journal.at(-1);
    const compacted = view.journal.some((entry) => entry.type === 'compaction') ? 'compacted, ' : '';
    const end = last?.type === 'agent_error' ? last.reason : 'end';
    ends.set(scenario.name, scenario.name.startsWith('context') ? `${compacted}${end}` : end);
    return undefined;
  };
}

function contextEnds(scenarios: readonly RuntimeScenario[]): Record<string, string> {
  const names = scenarios.map((s) => s.name).filter((name) => name.startsWith('context at '));
  return { [names[0] as string]: 'compacted, end', [names[1] as string]: 'end', [names[2] as string]: 'end' };
}
