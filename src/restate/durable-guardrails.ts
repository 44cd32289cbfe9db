import type { GuardrailOptions, GuardrailSettings } from '../config/guardrail-options.js';
import { errorMessage } from '../core/errors.js';
import type { Guardrail, GuardrailAnswer, GuardrailStage } from '../core/guardrail.js';
import type { TokenUsage } from '../core/usage.js';
import { untilAborted } from './durable-client.js';
import type { DurableSteps } from './durable-steps.js';

/** One check as a step records it: its answer or the message it threw, and the usage it counted. */
type RecordedCheck =
  | { readonly answer: GuardrailAnswer; readonly usage: readonly TokenUsage[] }
  | { readonly error: string; readonly usage: readonly TokenUsage[] };

/** `guardrail`, each check one durable step: a check recorded by an earlier execution is not run again. */
function durableGuardrail(guardrail: Guardrail, stage: GuardrailStage, steps: DurableSteps): Guardrail {
  return {
    name: guardrail.name,
    check: async (value, context) => {
      const label = `guardrail ${stage} ${guardrail.name}${context.call === undefined ? '' : ` ${context.call.callId}`}`;
      const step = steps.run(label, async (): Promise<RecordedCheck> => {
        const usage: TokenUsage[] = [];
        try {
          const answer = await guardrail.check(value, { ...context, addUsage: (used) => usage.push(used) });
          return { answer, usage };
        } catch (error) {
          // A throw is an outcome the run sees (the verdict `error`), not a step for Restate to retry.
          return { error: errorMessage(error), usage };
        }
      });
      const recorded = await untilAborted(step, context.signal);
      for (const used of recorded.usage) context.addUsage(used);
      if ('error' in recorded) throw new Error(recorded.error);
      return recorded.answer;
    },
  };
}

/**
 * The guardrails of every stage, each check one durable step (`guardrail STAGE NAME [CALL]`): its
 * answer, or what it threw, and the usage it counted (an LLM judge's) are recorded, so an
 * execution that replays the run gets the same verdicts, and counts the same usage, without
 * running a check again.
 */
export function durableGuardrails(guardrails: GuardrailSettings, steps: DurableSteps): GuardrailOptions {
  const wrap = (stage: GuardrailStage) =>
    guardrails[stage].map((guardrail) => durableGuardrail(guardrail, stage, steps));
  return { input: wrap('input'), output: wrap('output'), toolResult: wrap('toolResult') };
}
