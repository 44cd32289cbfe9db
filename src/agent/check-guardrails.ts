import type { GuardrailSettings } from '../config/guardrail-options.js';
import { checkContent } from '../core/content-check.js';
import { contentText, type MessageContent } from '../core/content-parts.js';
import { errorMessage } from '../core/errors.js';
import type { Guardrail, GuardrailAnswer, GuardrailContext, GuardrailVerdict } from '../core/guardrail.js';
import type { UserMessage } from '../core/messages.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../core/usage.js';
import type { CheckGuardrailsParams, GuardrailCheckedEvent } from '../machines/agent-machine-types.js';
import type { Session } from '../session/session.js';

/** What one stage's checks found: the verdicts up to the first that stops the run, and the value left. */
type Checked = Pick<GuardrailCheckedEvent, 'verdicts' | 'value' | 'usage'>;

/** The user's message the `input` stage checks: the session's last one the user wrote. */
export function lastUserInput(session: Session): MessageContent {
  const messages = session.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user' && (message as UserMessage).author === undefined) {
      return (message as UserMessage).content;
    }
  }
  return '';
}

/** Resolves with what the check answered, or rejects when it throws or the run stops first. */
function answerOf(guardrail: Guardrail, value: MessageContent, context: GuardrailContext): Promise<GuardrailAnswer> {
  const { signal } = context;
  if (signal.aborted) return Promise.reject(new Error(`aborted: ${String(signal.reason)}`));
  return new Promise<GuardrailAnswer>((resolve, reject) => {
    // A check that ignores its signal must not hold a stopping run: the abort answers for it.
    const onAbort = () => reject(new Error(`aborted: ${String(signal.reason)}`));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    try {
      Promise.resolve(guardrail.check(contentText(value), { ...context, content: value })).then(
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
function verdictOf(
  answer: unknown,
  base: Omit<GuardrailVerdict, 'outcome'>,
  maxBytes: number,
): { verdict: GuardrailVerdict; value?: MessageContent } {
  if (answer === 'pass') return { verdict: { ...base, outcome: 'pass' as const } };
  if (typeof answer === 'object' && answer !== null) {
    const { tripwire, replace } = answer as { tripwire?: unknown; replace?: unknown };
    if (typeof tripwire === 'string') return { verdict: { ...base, outcome: 'tripwire' as const, reason: tripwire } };
    if (replace !== undefined) return replacement(replace, base, maxBytes);
  }
  const reason = `Error: the check answered ${JSON.stringify(answer) ?? String(answer)}, not 'pass', { tripwire } or { replace }`;
  return { verdict: { ...base, outcome: 'error' as const, reason } };
}

/**
 * A `replace` answer: text for the final answer, text or valid parts for a tool result (each
 * image or file at most `maxBytes`, as a tool's own), none for the input.
 */
function replacement(replace: unknown, base: Omit<GuardrailVerdict, 'outcome'>, maxBytes: number) {
  const refuse = (why: string) => ({ verdict: { ...base, outcome: 'error' as const, reason: `Error: ${why}` } });
  if (base.stage === 'input') return refuse('an input guardrail may not replace the value');
  if (typeof replace === 'string') return { verdict: { ...base, outcome: 'replace' as const }, value: replace };
  if (base.stage === 'output') return refuse('an output guardrail replaces the answer with text');
  try {
    const value = checkContent(replace, 'the replacement', maxBytes);
    return { verdict: { ...base, outcome: 'replace' as const }, value };
  } catch (error) {
    return refuse(errorMessage(error));
  }
}

/**
 * Runs one stage's guardrails on a value, in order, each on the value the one before left
 * (a replacement), until one trips or fails. A throw, or the run stopping first, is the verdict
 * `error` (`Error: <message>`). Only runs them: the machine decides what the verdicts do.
 */
export async function runGuardrails(
  guardrails: GuardrailSettings,
  params: CheckGuardrailsParams,
  value: MessageContent,
  base: Omit<GuardrailContext, 'addUsage' | 'call' | 'content'>,
  maxAttachmentBytes: number,
): Promise<Checked> {
  const verdicts: GuardrailVerdict[] = [];
  let usage: TokenUsage = ZERO_USAGE;
  const callId = params.call?.callId;
  const context: GuardrailContext = {
    ...base,
    content: value,
    ...(params.call === undefined ? {} : { call: { callId: params.call.callId, name: params.call.name } }),
    addUsage: (used) => {
      usage = addUsage(usage, used);
    },
  };
  for (const guardrail of guardrails[params.stage]) {
    const where = { guardrail: guardrail.name, stage: params.stage, ...(callId === undefined ? {} : { callId }) };
    let found: { verdict: GuardrailVerdict; value?: MessageContent };
    try {
      found = verdictOf(await answerOf(guardrail, value, context), where, maxAttachmentBytes);
    } catch (error) {
      found = { verdict: { ...where, outcome: 'error', reason: `Error: ${errorMessage(error)}` } };
    }
    verdicts.push(found.verdict);
    if (found.value !== undefined) value = found.value;
    if (found.verdict.outcome === 'tripwire' || found.verdict.outcome === 'error') break;
  }
  return { verdicts, value, usage };
}
