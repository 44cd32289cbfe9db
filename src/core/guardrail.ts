import type { MessageContent } from './content-parts.js';
import type { Message } from './messages.js';
import type { TokenUsage } from './usage.js';

/** Where a guardrail runs: on the user's message, on the final answer, or on a tool's result. */
export type GuardrailStage = 'input' | 'output' | 'toolResult';

/** The guardrail stages, in the order a run meets them. */
export const GUARDRAIL_STAGES: readonly GuardrailStage[] = ['input', 'toolResult', 'output'];

/**
 * What a guardrail's check answers: `'pass'`, `{ tripwire: reason }` (the run ends with stop
 * reason `guardrail`), or `{ replace: value }` (redaction; output and tool results only).
 */
export type GuardrailAnswer = 'pass' | { readonly tripwire: string } | { readonly replace: MessageContent };

/** What a guardrail's check is given besides the value. */
export interface GuardrailContext {
  /** Aborted when the run stops (abort, wall-clock budget, another guardrail's tripwire). */
  readonly signal: AbortSignal;
  /** The session: its id and the model's context so far. */
  readonly session: { readonly id: string | undefined; readonly messages: readonly Message[] };
  /** Model turns completed in this run so far. */
  readonly turn: number;
  /**
   * The whole value checked: `check` gets its text, and a user message or tool result made of
   * parts (images, files) is here as those parts. A tool result's replacement may be parts too;
   * the final answer's is text.
   */
  readonly content: MessageContent;
  /** The tool call whose result is checked (`toolResult` stage only). */
  readonly call?: { readonly callId: string; readonly name: string };
  /** Counts a guardrail's own model usage (an LLM judge) into the run's usage and budgets. */
  readonly addUsage: (usage: TokenUsage) => void;
}

/** A named check on the input, the final answer or a tool's result (`Config({ guardrails })`). */
export interface Guardrail {
  /** Names the guardrail in its journaled verdicts and in the run's stop message. */
  readonly name: string;
  /** Checks `value` (sync or async); a throw is the verdict `error`. */
  check(value: string, context: GuardrailContext): GuardrailAnswer | Promise<GuardrailAnswer>;
}

/** The outcome of one guardrail's check, as journaled. */
export type GuardrailOutcome = 'pass' | 'replace' | 'tripwire' | 'error';

/** One guardrail's verdict on one value: a journal entry's content and what the machine decides on. */
export interface GuardrailVerdict {
  /** The guardrail's name. */
  readonly guardrail: string;
  readonly stage: GuardrailStage;
  readonly outcome: GuardrailOutcome;
  /** The tripwire's reason, or `Error: <message>` for a guardrail that threw. */
  readonly reason?: string;
  /** The call whose result was checked (`toolResult`). */
  readonly callId?: string;
}

/** A verdict that ends the run: a tripwire, or a guardrail that failed. */
export function stopsRun(verdict: GuardrailVerdict): boolean {
  return verdict.outcome === 'tripwire' || verdict.outcome === 'error';
}

/** The stop message of a run a guardrail ended: names the guardrail, its stage and why. */
export function guardrailStopMessage(verdict: GuardrailVerdict): string {
  const on = verdict.callId === undefined ? verdict.stage : `${verdict.stage} of call ${verdict.callId}`;
  const what = verdict.outcome === 'error' ? 'failed' : 'tripped';
  return `guardrail '${verdict.guardrail}' (${on}) ${what}: ${verdict.reason ?? ''}`;
}
