/** Names of the loop invariants {@link checkLoopInvariants} checks. */
export type LoopRule =
  | 'run_shape'
  | 'results_follow_calls'
  | 'transitions'
  | 'budget_check_before_request'
  | 'done_after_text_turn'
  | 'stop_reason'
  | 'usage'
  | 'turn_budget'
  | 'soft_limit'
  | 'guardrails'
  | 'replay'
  | 'reasoning_integrity'
  | 'event_shape'
  | 'text_order'
  | 'tool_events'
  | 'end_data';

/** One broken invariant. */
export interface LoopViolation {
  /** Which invariant (machine-readable). */
  readonly rule: LoopRule;
  /** What is wrong, naming the entry or event. */
  readonly message: string;
}

/** Thrown by {@link assertLoopInvariants}; lists every violation found. */
export class LoopInvariantError extends Error {
  /** Machine-readable reason, as on other errors of the library. */
  readonly reason = 'loop_invariant';
  /** Every violation found. */
  readonly violations: readonly LoopViolation[];

  constructor(violations: readonly LoopViolation[], context = '') {
    const lines = violations.map((v) => `  - [${v.rule}] ${v.message}`);
    super(`loop invariants broken:\n${lines.join('\n')}${context === '' ? '' : `\n${context}`}`);
    this.name = 'LoopInvariantError';
    this.violations = violations;
  }
}

/** Shorthand for building a violation. */
export function violation(rule: LoopRule, message: string): LoopViolation {
  return { rule, message };
}
