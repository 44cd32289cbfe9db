import { errorMessage } from '../../core/errors.js';
import { ModelError } from './model-error.js';
import { type HeaderReader, retryAfterMs } from './retry-after.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes both official SDKs (Stainless-generated) export. */
export interface SdkErrorClasses {
  readonly APIError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
  readonly APIConnectionTimeoutError: ErrorClass;
  readonly APIUserAbortError: ErrorClass;
}

/** Where a request went, for error messages. */
export interface RequestContext {
  /** `openai` or `anthropic`. */
  readonly provider: string;
  /** The base URL the request went to. */
  readonly endpoint: string;
  readonly signal?: AbortSignal | undefined;
}

/** Connection failures that another attempt within seconds will not fix. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** fetch's own refusal of a port on its blocklist (1, 7, 9, 25, …): no connection is even tried. */
const BAD_PORT = 'bad port';

function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (current.message === BAD_PORT) return BAD_PORT;
    current = current.cause;
  }
  return undefined;
}

/** An overloaded provider (Anthropic's `overloaded_error`, 529; some gateways say it with a 503). */
const OVERLOADED = /overloaded/i;

/**
 * How providers word a request over the model's context window: OpenAI's
 * `context_length_exceeded` / "maximum context length", Anthropic's "prompt is too long",
 * Gemini's "exceeds the maximum number of tokens", and the generic "too many tokens".
 */
const CONTEXT_LENGTH =
  /context_length_exceeded|maximum context length|context window|prompt is too long|exceeds the maximum number of tokens|too many (input )?tokens/i;

function statusError(error: Error & { status: number; headers?: HeaderReader }, where: string): ModelError {
  const { status } = error;
  const options = { status, retryAfterMs: retryAfterMs(error.headers), cause: error };
  const detail = errorMessage(error).replace(/^\d{3}\s*/, '');
  if (status === 401 || status === 403) {
    const what = status === 401 ? 'authentication failed' : 'permission denied';
    return new ModelError(
      'authentication',
      `${where}: ${what} (HTTP ${status}); check the API key: ${detail}`,
      options,
    );
  }
  if (status === 429) return new ModelError('rate_limited', `${where}: rate limited (HTTP 429): ${detail}`, options);
  if (status === 529 || (status === 503 && OVERLOADED.test(detail))) {
    return new ModelError('overloaded', `${where}: overloaded (HTTP ${status}): ${detail}`, options);
  }
  if (status >= 500 || status === 408 || status === 409) {
    return new ModelError('server', `${where}: server error (HTTP ${status}): ${detail}`, options);
  }
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(detail)) {
    return new ModelError('context_length', `${where}: the context is too long (HTTP ${status}): ${detail}`, options);
  }
  return new ModelError('bad_request', `${where}: request refused (HTTP ${status}): ${detail}`, options);
}

/**
 * Turns what an SDK call (or reading its stream) threw into a {@link ModelError}: HTTP statuses
 * by class, time-outs, aborts, unreachable hosts, dropped connections and stream errors.
 */
export function classifySdkError(error: unknown, classes: SdkErrorClasses, context: RequestContext): ModelError {
  const where = `${context.provider} at ${context.endpoint}`;
  if (context.signal?.aborted || error instanceof classes.APIUserAbortError) {
    return new ModelError('aborted', `${where}: the request was aborted`, { cause: error });
  }
  if (error instanceof ModelError) return error;
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelError('timeout', `${where}: the request timed out`, { cause: error });
  }
  if (error instanceof classes.APIConnectionError) {
    const code = causeCode(error.cause);
    const kind = code !== undefined && UNREACHABLE_CODES.has(code) ? 'unreachable' : 'connection';
    if (code === BAD_PORT) {
      const why = 'fetch refuses this port (a "bad port" of the Fetch standard); use another';
      return new ModelError('unreachable', `${where}: cannot connect (${why})`, { cause: error });
    }
    return new ModelError(kind, `${where}: cannot connect (${code ?? errorMessage(error)})`, { cause: error });
  }
  const status = (error as { status?: unknown }).status;
  if (error instanceof classes.APIError && typeof status === 'number') {
    return statusError(error as Error & { status: number; headers?: HeaderReader }, where);
  }
  const code = causeCode(error);
  const why = code === undefined ? errorMessage(error) : `${errorMessage(error)}, ${code}`;
  return new ModelError('stream', `${where}: the response stream failed (${why})`, { cause: error });
}
