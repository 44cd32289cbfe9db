/**
 * Model fallback (`agent-harness/fallback`): a model client over several, that moves a turn to
 * the next model when one is rate limited, overloaded, failing, out of context or timing out,
 * and reports each switch in the stream for the journal.
 */

export type { FallbackOptions } from './adapters/fallback/fallback-client.js';
export { fallbackClient } from './adapters/fallback/fallback-client.js';
export type { FallbackFailure } from './adapters/fallback/fallback-error.js';
export { FallbackError } from './adapters/fallback/fallback-error.js';
export type { FallbackReason } from './adapters/fallback/fallback-reason.js';
export { DEFAULT_FALLBACK_ON } from './adapters/fallback/fallback-reason.js';
export type { ModelSwitch } from './core/stream-event.js';
