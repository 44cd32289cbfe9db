import { budgetBoundaries } from './budget-rule.js';
import { compactionKeepsPairs } from './compaction-pairs-rule.js';
import { contextBoundary } from './context-rule.js';
import { handoffSwapsTools } from './handoff-rule.js';
import { invalidCallsBoundary } from './invalid-calls-rule.js';
import { journalOrder } from './journal-order-rule.js';
import { outputRetriesBoundary } from './output-retries-rule.js';
import { parallelCap } from './parallel-cap-rule.js';
import { policyKept } from './policy-rule.js';
import { resumeNeverReruns } from './resume-rule.js';
import { treeBudget } from './tree-budget-rule.js';
import type { RuntimeRule } from './walk-types.js';

/** The runtime walk's own rules, by the name its findings carry. */
export const RUNTIME_RULES = {
  resume_never_reruns: resumeNeverReruns,
  handoff_swaps_tools: handoffSwapsTools,
  compaction_keeps_pairs: compactionKeepsPairs,
  journal_order: journalOrder,
  budget_boundaries: budgetBoundaries,
  context_boundary: contextBoundary,
  invalid_calls_boundary: invalidCallsBoundary,
  output_retries_boundary: outputRetriesBoundary,
  parallel_cap: parallelCap,
  policy_kept: policyKept,
  tree_budget: treeBudget,
} as const satisfies Record<string, RuntimeRule>;

/** The name of one of the runtime walk's own rules. */
export type RuntimeRuleName = keyof typeof RUNTIME_RULES;
