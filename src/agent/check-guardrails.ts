import type { GuardrailSettings } from '../config/guardrail-options.js';
import { errorMessage } from '../core/errors.js';
import type { Guardrail, GuardrailAnswer, GuardrailContext, GuardrailVerdict } from '../core/guardrail.js';
import type { UserMessage } from '../core/messages.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../core/usage.js';
import type { CheckGuardrailsParams, GuardrailCheckedEvent } from '../machines/agent-machine-types.js';
import type { Session } from '../session/session.js';

/** What one stage's checks found: the verdicts up to the first that stops the run, and the value left. */
type Checked = Pick<GuardrailCheckedEvent, 'verdicts' | 'value' | 'usage'>;

/** The user's message the `input` stage checks: the session's last one the user wrote. */
export function lastUserInput(session: Session): string {
  const messages = session.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user' && (message as UserMessage).author === undefined) {
      const content = (message as UserMessage).content;
      return typeof content === 'string' ? content : JSON.stringify(content);
    }
  }
  return '';
}

/** Resolves with what the check answered, or rejects when it throws or the run stops first. */
function answerOf(guardrail: Guardrail, value: string, context: GuardrailContext): Promise<GuardrailAnswer> {
  const { signal } = context;
  if (signal.aborted) return Promise.reject(new Error(`aborted: ${String(signal.reason)}`));
  return new Promise<GuardrailAnswer>((resolve, reject) => {
    // A check that ignores its signal must not hold a stopping run: the abort answers for it.
    const onAbort = () => reject(new Error(`aborted: ${String(signal.reason)}`));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    try {
      Promise.resolve(guardrail.check(value, context)).then(
        (answer) => {
          done();
          resolve(answer);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    } catch (error) {
      done();
      reject(error);
    }
  });
}

/** One guardrail's answer as a verdict; a `replace` where the stage allows none, or a malformed answer, is an error. */
function verdictOf(answer: unknown, base: Omit<GuardrailVerdict, 'outcome'>, replaces: boolean) {
  if (answer === 'pass') return { verdict: { ...base, outcome: 'pass' as const } };
  if (typeof answer === 'object' && answer !== null) {
    const { tripwire, replace } = answer as { tripwire?: unknown; replace?: unknown };
    if (typeof tripwire === 'string') return { verdict: { ...base, outcome: 'tripwire' as const, reason: tripwire } };
    if (typeof replace === 'string' && replaces) {
      return { verdict: { ...base, outcome: 'replace' as const }, value: replace };
    }
    if (typeof replace === 'string') {
      const reason = `Error: a ${base.stage} guardrail may not replace the value`;
      return { verdict: { ...base, outcome: 'error' as const, reason } };
    }
  }
  const reason = `Error: the check answered ${JSON.stringify(answer) ?? String(answer)}, not 'pass', { tripwire } or { replace }`;
  return { verdict: { ...base, outcome: 'error' as const, reason } };
}

/**
 * Runs one stage's guardrails on a value, in order, each on the value the one before left
 * (a replacement), until one trips or fails. A throw, or the run stopping first, is the verdict
 * `error` (`Error: <message>`). Only runs them: the machine decides what the verdicts do.
 */
export async function runGuardrails(
  guardrails: GuardrailSettings,
  params: CheckGuardrailsParams,
  value: string,
  base: Omit<GuardrailContext, 'addUsage' | 'call'>,
): Promise<Checked> {
  const verdicts: GuardrailVerdict[] = [];
  let usage: TokenUsage = ZERO_USAGE;
  const callId = params.call?.callId;
  const context: GuardrailContext = {
    ...base,
    ...(params.call === undefined ? {} : { call: { callId: params.call.callId, name: params.call.name } }),
    addUsage: (used) => {
      usage = addUsage(usage, used);
    },
  };
  for (const guardrail of guardrails[params.stage]) {
    const where = { guardrail: guardrail.name, stage: params.stage, ...(callId === undefined ? {} : { callId }) };
    let found: { verdict: GuardrailVerdict; value?: string };
    try {
      found = verdictOf(await answerOf(guardrail, value, context), where, params.stage !== 'input');
    } catch (error) {
      found = { verdict: { ...where, outcome: 'error', reason: `Error: ${errorMessage(error)}` } };
    }
    verdicts.push(found.verdict);
    if (found.value !== undefined) value = found.value;
    if (found.verdict.outcome === 'tripwire' || found.verdict.outcome === 'error') break;
  }
  return { verdicts, value, usage };
}
