/**
 * Guardrails (`agent-harness/guardrails`): the types of the checks `Config({ guardrails })` runs
 * on the user's message, the final answer and each tool result, and of their journaled verdicts.
 * See docs/guardrails.md.
 */

export type { GuardrailOptions, GuardrailSettings } from './config/guardrail-options.js';
export type {
  Guardrail,
  GuardrailAnswer,
  GuardrailContext,
  GuardrailOutcome,
  GuardrailStage,
  GuardrailVerdict,
} from './core/guardrail.js';
export { GUARDRAIL_STAGES } from './core/guardrail.js';
