/**
 * The face of `config/` (row 2): validated options — `Config`, `Budget`, the permission policy,
 * context options.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type { BudgetOptions, BudgetStopReason, SoftLimitHit } from './budget.js';
export { Budget } from './budget.js';
export type { ConfigOptions } from './config.js';
export {
  Config,
  DEFAULT_MAX_AGENT_DEPTH,
  DEFAULT_MAX_INVALID_TOOL_CALLS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  DEFAULT_MAX_TURNS,
} from './config.js';
export type { ContextOptions, ContextSettings } from './context-options.js';
export { COMPACTION_STRATEGIES } from './context-options.js';
export type { GuardrailOptions, GuardrailSettings } from './guardrail-options.js';
export { checkGuardrails, NO_GUARDRAILS } from './guardrail-options.js';
export { editDistance } from './option-keys.js';
export type { FoundRule, PermissionPolicy, ScopedPermissions } from './permission-policy.js';
export {
  allowsEverything,
  checkPermissions,
  FALLBACK_KEY,
  KIND_PREFIX,
  permissionDefaults,
  permissionFor,
  ruleFor,
  TOOL_PREFIX,
} from './permission-policy.js';
