import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNTIME_BUGS, type RuntimeBug } from './runtime-bugs.js';

/** The walk, loaded afresh with `bug` planted, over the scenarios whose names start with the bug's. */
async function walkWith(bug: RuntimeBug) {
  vi.resetModules();
  vi.doMock(bug.module, async (importOriginal) => bug.plant(await importOriginal()));
  const testing = await import('../../src/testing/index.js');
  const scenarios = [...testing.RUNTIME_SCENARIOS, ...(await testing.boundaryScenarios())].filter((scenario) =>
    scenario.name.startsWith(bug.scenario),
  );
  expect(scenarios.length).toBeGreaterThan(0);
  return testing.walkRuntime({ scenarios, crashes: 1, forks: 'none' });
}

afterEach(() => {
  for (const bug of RUNTIME_BUGS) vi.doUnmock(bug.module);
  vi.resetModules();
});

describe('the runtime walk, on an agent with a planted bug', () => {
  for (const bug of RUNTIME_BUGS) {
    it(`reports: ${bug.bug}`, async () => {
      const report = await walkWith(bug);
      const seen = report.findings.map((f) => `[${f.rule}] ${f.problem}\n    ${f.path.at(-1)}`).join('\n');
      const found = report.findings.find((f) => f.rule === bug.rule && bug.problem.test(f.problem));
      expect(found, `no [${bug.rule}] ${bug.problem} among:\n${seen}`).toBeDefined();
      expect(found?.path[0]).toMatch(/^scenario '/);
      expect(found?.path).toContainEqual(expect.stringMatching(bug.step));
    });
  }
});
