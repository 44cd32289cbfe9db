import type { BudgetKind, StopReason } from '../../core/agent-event.js';
import type { AgentStateName } from '../../machines/agent-machine-types.js';
import type { MachineViolation } from './model-check-types.js';

/** What one exploration collects while it walks. */
export interface Findings {
  readonly visited: Set<AgentStateName>;
  readonly stopReasons: Set<StopReason>;
  readonly softLimits: Set<BudgetKind>;
  readonly violations: MachineViolation[];
  readonly seen: Set<string>;
}

/** An empty collection. */
export function newFindings(): Findings {
  return { visited: new Set(), stopReasons: new Set(), softLimits: new Set(), violations: [], seen: new Set() };
}

/**
 * Records a problem once, with the first path that showed it (breadth first: a shortest one).
 * The path is built only for a new problem.
 */
export function note(findings: Findings, rule: string, problem: string, path: () => readonly string[]): void {
  const id = `${rule}\u0000${problem}`;
  if (findings.seen.has(id)) return;
  findings.seen.add(id);
  findings.violations.push({ rule, problem, path: path() });
}
