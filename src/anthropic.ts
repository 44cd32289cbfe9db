// agent-harness/anthropic: the Anthropic model client.
export type { AnthropicClientOptions } from './adapters/anthropic/anthropic-client.js';
export { ANTHROPIC_BASE_URL, AnthropicClient } from './adapters/anthropic/anthropic-client.js';
export type { AnthropicCacheOptions } from './adapters/anthropic/cache-breakpoints.js';
export type { AnthropicThinking } from './adapters/anthropic/thinking-options.js';
export type { HttpClientOptions } from './adapters/http/client-options.js';
export type { ModelErrorKind, ModelErrorOptions } from './adapters/http/model-error.js';
export { ModelError } from './adapters/http/model-error.js';
export type { RetryOptions } from './adapters/http/retry-policy.js';
export type { Sleep } from './adapters/http/sleep.js';
export type { RetryNotice } from './adapters/http/with-retries.js';
