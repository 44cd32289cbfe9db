import type { AnyActorRef } from 'xstate';
import { recordedVerdictsOf } from '../core/recorded-verdicts.js';
import { toolMessageContent } from '../core/tool-result.js';
import type { CheckGuardrailsParams } from '../machines/agent-machine-types.js';
import { lastUserInput, runGuardrails } from './check-guardrails.js';
import { answer } from './request-model.js';
import { activeRun, depsOf } from './run-handle.js';

/**
 * The `checkGuardrails` effect: runs the stage's guardrails on the value the machine names (the
 * `input` stage on the session's last user message) with the run's guardrail signal, and answers
 * `GUARDRAIL_CHECKED`. It journals nothing: the machine records the verdicts and decides. A tool
 * result served from a recording with its verdicts is answered with them, running nothing.
 */
export function checkGuardrails(self: AnyActorRef, system: object, params: CheckGuardrailsParams): void {
  const deps = depsOf(system);
  const run = activeRun(deps);
  const value =
    params.value ??
    (params.settled === undefined ? lastUserInput(deps.session) : toolMessageContent(params.settled.result));
  const recorded =
    params.settled === undefined ? undefined : recordedVerdictsOf(params.settled.result, deps.guardrails[params.stage]);
  if (recorded !== undefined) {
    const checked = { type: 'GUARDRAIL_CHECKED' as const, stage: params.stage, value, ...recorded };
    queueMicrotask(() => answer(self, { ...checked, settled: params.settled }));
    return;
  }
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
