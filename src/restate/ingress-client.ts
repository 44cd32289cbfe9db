import { randomUUID } from 'node:crypto';
import type { MessageContent } from '../core/content-parts.js';
import { HarnessError } from '../core/errors.js';
import { excerpt, printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';
import { DEFAULT_SERVICE, type Decision, type RunOutcome, type RunStatus } from './protocol.js';

/** Where the agent's virtual object is reached: Restate's ingress URL and the object's name. */
export interface IngressTarget {
  /** The ingress URL (`http://127.0.0.1:8080`). */
  readonly url: string;
  /** The virtual object's name; `agent` by default. */
  readonly service?: string;
}

function base(target: IngressTarget | string): { url: string; service: string } {
  const { url, service } = typeof target === 'string' ? { url: target, service: undefined } : target;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HarnessError('invalid_argument', `not a Restate ingress URL: '${printableLine(url)}'`);
  }
  return { url: parsed.href.replace(/\/$/, ''), service: service ?? DEFAULT_SERVICE };
}

async function call<T>(
  target: IngressTarget | string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<T> {
  const { url } = base(target);
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    throw new HarnessError(
      'restate_error',
      `cannot reach Restate at ${redactPassword(url)}: ${printableLine(error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error))}`,
      { cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {}
    throw new HarnessError(
      'restate_error',
      `Restate answered ${response.status} to ${path}: ${excerpt(printableLine(message), 500)}`,
    );
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

function objectPath(target: IngressTarget | string, sessionId: string, handler: string): string {
  return `/${encodeURIComponent(base(target).service)}/${encodeURIComponent(sessionId)}/${handler}`;
}

/**
 * Submits a run of session `sessionId` (created when new) and returns its invocation id at once;
 * {@link runOutcome} waits for its end. `task` is text or content parts (SPEC §15); `""`
 * finishes the session's interrupted run. With `idempotencyKey`, submitting again returns the
 * same invocation instead of a second run (a random key by default).
 */
export async function submitRun(
  target: IngressTarget | string,
  sessionId: string,
  task: MessageContent,
  options: { readonly idempotencyKey?: string } = {},
): Promise<string> {
  // With a key, Restate keeps the outcome for `runOutcome` to attach to after the run ended.
  const headers = { 'idempotency-key': options.idempotencyKey ?? randomUUID() };
  const sent = await call<{ invocationId: string }>(
    target,
    `${objectPath(target, sessionId, 'run')}/send`,
    { task },
    headers,
  );
  return sent.invocationId;
}

/** Waits for the run `invocationId` to end and returns how it ended; `signal` stops waiting (not the run). */
export function runOutcome(
  target: IngressTarget | string,
  invocationId: string,
  options: { readonly signal?: AbortSignal } = {},
): Promise<RunOutcome> {
  return call<RunOutcome>(
    target,
    `/restate/invocation/${encodeURIComponent(invocationId)}/attach`,
    undefined,
    {},
    options.signal,
  );
}

/** Approves a call of session `sessionId` that waits for a decision. */
export async function approveCall(target: IngressTarget | string, sessionId: string, callId: string): Promise<void> {
  await decide(target, sessionId, { callId, approve: true });
}

/** Denies a call of session `sessionId` that waits; the model reads `Error: denied: <reason>`. */
export async function denyCall(
  target: IngressTarget | string,
  sessionId: string,
  callId: string,
  reason?: string,
): Promise<void> {
  await decide(
    target,
    sessionId,
    reason === undefined ? { callId, approve: false } : { callId, approve: false, reason },
  );
}

async function decide(target: IngressTarget | string, sessionId: string, decision: Decision): Promise<void> {
  await call(target, objectPath(target, sessionId, 'decide'), decision);
}

/** Cancels the run in progress of session `sessionId`: the agent is aborted (`abort()`). */
export async function cancelRun(target: IngressTarget | string, sessionId: string): Promise<void> {
  await call(target, objectPath(target, sessionId, 'cancel'), {});
}

/** The run in progress of session `sessionId`, if any, and its calls waiting for a decision. */
export function runStatus(target: IngressTarget | string, sessionId: string): Promise<RunStatus> {
  return call<RunStatus>(target, objectPath(target, sessionId, 'status'), {});
}
