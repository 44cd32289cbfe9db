import { expect } from 'vitest';
import type { ModelCheckReport } from '../../src/testing/index.js';
import type { PlantedBug } from './planted-bugs.js';

/** Fails unless the report names each expected rule with its problem and a path to it. */
export function expectReported(
  report: ModelCheckReport,
  reported: PlantedBug['reported'],
  { atStart = false }: { atStart?: boolean } = {},
): void {
  for (const [rule, problem] of reported) {
    const found = report.violations.find((v) => v.rule === rule && problem.test(v.problem));
    const seen = report.violations.map((v) => `[${v.rule}] ${v.problem}`).join('\n');
    expect(found, `no [${rule}] ${problem} among:\n${seen}`).toBeDefined();
    if (rule !== 'unreachable_state' && !atStart) expect(found?.path.length).toBeGreaterThan(0);
  }
}
