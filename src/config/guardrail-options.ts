import { HarnessError } from '../core/errors.js';
import type { Guardrail, GuardrailStage } from '../core/guardrail.js';
import { GUARDRAIL_STAGES } from '../core/guardrail.js';

/** `Config({ guardrails })`: the guardrails of each stage, run in the order given. */
export interface GuardrailOptions {
  /** Checks on the user's message; may run while the first model request is in flight. */
  readonly input?: readonly Guardrail[];
  /** Checks on the final answer, before the run ends `done`. */
  readonly output?: readonly Guardrail[];
  /** Checks on each tool result, before it is journaled or reaches a model request. */
  readonly toolResult?: readonly Guardrail[];
}

/** The guardrails of each stage, checked and frozen (an empty list where none were given). */
export type GuardrailSettings = { readonly [S in GuardrailStage]: readonly Guardrail[] };

/** No guardrail anywhere. */
export const NO_GUARDRAILS: GuardrailSettings = Object.freeze({
  input: Object.freeze([]),
  output: Object.freeze([]),
  toolResult: Object.freeze([]),
});

function refuse(message: string): never {
  throw new HarnessError('invalid_config', `guardrails: ${message}`);
}

function checkedGuardrail(value: unknown, stage: GuardrailStage, index: number, names: Set<string>): Guardrail {
  const where = `guardrails.${stage}[${index}]`;
  if (typeof value !== 'object' || value === null) refuse(`${where} must be { name, check }, got ${String(value)}`);
  const { name, check } = value as { name?: unknown; check?: unknown };
  if (typeof name !== 'string' || name.trim() === '') refuse(`${where} needs a non-empty string 'name'`);
  if (typeof check !== 'function') refuse(`${where} ('${name}') needs a 'check' function`);
  if (names.has(name)) refuse(`two guardrails of stage '${stage}' are named '${name}'; names tell verdicts apart`);
  names.add(name);
  return value as Guardrail;
}

/**
 * Checks `Config({ guardrails })`: only the stages `input`, `output` and `toolResult`, each an
 * array of `{ name, check }` with a non-empty name unique in its stage. Throws `invalid_config`
 * naming the bad guardrail.
 */
export function checkGuardrails(options: GuardrailOptions | undefined): GuardrailSettings {
  if (options === undefined) return NO_GUARDRAILS;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    refuse('must be { input?, output?, toolResult? }');
  }
  for (const key of Object.keys(options)) {
    if (!(GUARDRAIL_STAGES as readonly string[]).includes(key)) {
      refuse(`unknown stage '${key}'; the stages are ${GUARDRAIL_STAGES.join(', ')}`);
    }
  }
  const stageOf = (stage: GuardrailStage): readonly Guardrail[] => {
    const list: unknown = options[stage];
    if (list === undefined) return NO_GUARDRAILS[stage];
    if (!Array.isArray(list)) refuse(`guardrails.${stage} must be an array of { name, check }`);
    const names = new Set<string>();
    return Object.freeze(list.map((value, index) => checkedGuardrail(value, stage, index, names)));
  };
  return Object.freeze({ input: stageOf('input'), output: stageOf('output'), toolResult: stageOf('toolResult') });
}
