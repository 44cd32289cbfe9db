import type { StreamError } from '../../core/stream-event.js';
import { ModelError, type ModelErrorKind } from '../http/model-error.js';

/** Why a {@link fallbackClient} left a model for the next one. */
export type FallbackReason = 'rate_limit' | 'overloaded' | 'server' | 'context_length' | 'timeout' | 'connection';

/** The reasons a fallback chain switches on unless told otherwise (a dropped connection is not one). */
export const DEFAULT_FALLBACK_ON: readonly FallbackReason[] = Object.freeze([
  'rate_limit',
  'overloaded',
  'server',
  'context_length',
  'timeout',
]);

const BY_KIND: Partial<Record<ModelErrorKind, FallbackReason>> = {
  rate_limited: 'rate_limit',
  overloaded: 'overloaded',
  server: 'server',
  context_length: 'context_length',
  timeout: 'timeout',
  connection: 'connection',
  unreachable: 'connection',
};

const CONTEXT_LENGTH = /context_length|context length|context window|prompt is too long|too many (input )?tokens/i;

/**
 * The fallback reason of a stream's `error` event, from its code (an HTTP status or the provider's
 * error type) and its words; undefined when it is none of them (the error then ends the turn).
 */
export function reasonOfStreamError(error: StreamError | string | undefined): FallbackReason | undefined {
  if (error === undefined) return undefined;
  const { message, code } = typeof error === 'string' ? { message: error, code: undefined } : error;
  const text = `${code ?? ''} ${message}`;
  if (code === '429' || /rate.?limit/i.test(text)) return 'rate_limit';
  if (code === '529' || /overloaded/i.test(text)) return 'overloaded';
  if (CONTEXT_LENGTH.test(text)) return 'context_length';
  if (code !== undefined && /^5\d\d$/.test(code)) return 'server';
  if (/timed? ?out/i.test(text)) return 'timeout';
  return undefined;
}

/**
 * The fallback reason of what a client threw: a {@link ModelError}'s kind (the built-in clients
 * and `fromAiSdk` throw those), or undefined for anything else (a bad request, a bad key, an
 * abort, a bug), which no other model would fix.
 */
export function reasonOfError(error: unknown): FallbackReason | undefined {
  if (error instanceof ModelError) return BY_KIND[error.kind];
  // A ModelError from another copy of the library: same shape.
  const kind = (error as { name?: unknown; kind?: unknown } | null)?.kind;
  if ((error as { name?: unknown } | null)?.name === 'ModelError' && typeof kind === 'string') {
    return BY_KIND[kind as ModelErrorKind];
  }
  return undefined;
}
