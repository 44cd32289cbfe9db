import { errorMessage } from '../../core/errors.js';
import { ModelError } from '../http/model-error.js';

const CONTEXT_LENGTH =
  /context_length_exceeded|maximum context length|context window|prompt is too long|exceeds the maximum number of tokens|too many (input )?tokens/i;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function retryAfterMs(headers: unknown): number | undefined {
  const value = (headers as Record<string, unknown> | undefined)?.['retry-after'];
  const seconds = typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * What an AI SDK model threw or streamed as an `error` part, as a {@link ModelError}: an
 * `APICallError`'s status by class (429 rate limited, 529 or "overloaded" overloaded, 5xx server,
 * a context-window refusal, 401/403 authentication, other 4xx bad request), aborts, time-outs,
 * unreachable hosts, and anything else as a stream failure. `where` names the provider and model.
 */
export function classifyAiSdkError(error: unknown, where: string, signal: AbortSignal | undefined): ModelError {
  if (error instanceof ModelError) return error;
  const message = errorMessage(error);
  const name = (error as { name?: unknown } | null)?.name;
  if (signal?.aborted || name === 'AbortError') {
    return new ModelError('aborted', `${where}: the request was aborted`, { cause: error });
  }
  if (name === 'TimeoutError') return new ModelError('timeout', `${where}: the request timed out`, { cause: error });
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') {
    const body = (error as { responseBody?: unknown }).responseBody;
    const detail = typeof body === 'string' && body !== '' ? `${message}: ${body}` : message;
    const options = {
      status,
      cause: error,
      retryAfterMs: retryAfterMs((error as { responseHeaders?: unknown }).responseHeaders),
    };
    if (status === 401 || status === 403) {
      return new ModelError('authentication', `${where}: authentication failed (HTTP ${status}): ${detail}`, options);
    }
    if (status === 429) return new ModelError('rate_limited', `${where}: rate limited (HTTP 429): ${detail}`, options);
    if (status === 529 || /overloaded/i.test(detail)) {
      return new ModelError('overloaded', `${where}: overloaded (HTTP ${status}): ${detail}`, options);
    }
    if (status >= 500 || status === 408 || status === 409) {
      return new ModelError('server', `${where}: server error (HTTP ${status}): ${detail}`, options);
    }
    if (CONTEXT_LENGTH.test(detail)) {
      return new ModelError('context_length', `${where}: the context is too long (HTTP ${status}): ${detail}`, options);
    }
    return new ModelError('bad_request', `${where}: request refused (HTTP ${status}): ${detail}`, options);
  }
  const code = codeOf(error);
  if (code !== undefined && UNREACHABLE.has(code)) {
    return new ModelError('unreachable', `${where}: cannot connect (${code})`, { cause: error });
  }
  if (CONTEXT_LENGTH.test(message)) return new ModelError('context_length', `${where}: ${message}`, { cause: error });
  if (/overloaded/i.test(message)) return new ModelError('overloaded', `${where}: ${message}`, { cause: error });
  const why = code === undefined ? message : `${message}, ${code}`;
  return new ModelError('stream', `${where}: the response stream failed (${why})`, { cause: error });
}
