import type { AnyActorRef } from 'xstate';
import { toolMessageContent } from '../core/tool-result.js';
import type { CheckGuardrailsParams } from '../machines/agent-machine-types.js';
import { lastUserInput, runGuardrails } from './check-guardrails.js';
import { answer } from './request-model.js';
import { activeRun, depsOf } from './run-handle.js';

/**
 * The `checkGuardrails` effect: runs the stage's guardrails on the value the machine names (the
 * `input` stage on the session's last user message) with the run's guardrail signal, and answers
 * `GUARDRAIL_CHECKED`. It journals nothing: the machine records the verdicts and decides.
 */
export function checkGuardrails(self: AnyActorRef, system: object, params: CheckGuardrailsParams): void {
  const deps = depsOf(system);
  const run = activeRun(deps);
  const value =
    params.value ??
    (params.settled === undefined ? lastUserInput(deps.session) : toolMessageContent(params.settled.result));
  const base = { signal: run.guardrailAbort.signal, session: deps.session, turn: params.turn };
  runGuardrails(deps.guardrails, params, value, base, deps.maxAttachmentBytes).then(
    (checked) =>
      answer(self, {
        type: 'GUARDRAIL_CHECKED',
        stage: params.stage,
        ...checked,
        ...(params.settled === undefined ? {} : { settled: params.settled }),
      }),
    (error: unknown) => run.fail(error),
  );
}
