import type { Guardrail, GuardrailVerdict } from './guardrail.js';
import type { ToolResult } from './tool-result.js';
import type { TokenUsage } from './usage.js';

/** The verdicts a recording gave a tool result, and what its guardrails' own requests used. */
export interface RecordedVerdicts {
  readonly verdicts: readonly GuardrailVerdict[];
  readonly usage: TokenUsage;
}

const recorded = new WeakMap<ToolResult, RecordedVerdicts>();

/**
 * Marks a result served from a recording (a cassette's `tools: 'recorded'`) as already checked:
 * it is the value its `toolResult` guardrails let through then (replaced, or the withheld error),
 * so running them on it again would check a checked value (SPEC §16: replay never runs a
 * guardrail again). Returns the result.
 */
export function withRecordedVerdicts(result: ToolResult, verdicts: RecordedVerdicts): ToolResult {
  recorded.set(result, verdicts);
  return result;
}

/**
 * The recorded verdicts of a result, when it has some and they came from the guardrails given
 * (the same names in the same order, up to the one that stopped): with other guardrails the
 * result is checked again, so the change shows.
 */
export function recordedVerdictsOf(result: ToolResult, guardrails: readonly Guardrail[]): RecordedVerdicts | undefined {
  const found = recorded.get(result);
  if (found === undefined) return undefined;
  const { verdicts } = found;
  const last = verdicts.at(-1);
  const stopped = last !== undefined && (last.outcome === 'tripwire' || last.outcome === 'error');
  if (!stopped && verdicts.length !== guardrails.length) return undefined;
  const same = verdicts.every((verdict, index) => guardrails[index]?.name === verdict.guardrail);
  return same ? found : undefined;
}
