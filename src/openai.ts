// agent-harness/openai: the OpenAI (and OpenAI-compatible) model client.
export type { HttpClientOptions } from './adapters/http/client-options.js';
export type { ModelErrorKind, ModelErrorOptions } from './adapters/http/model-error.js';
export { ModelError } from './adapters/http/model-error.js';
export type { RetryOptions } from './adapters/http/retry-policy.js';
export type { Sleep } from './adapters/http/sleep.js';
export type { RetryNotice } from './adapters/http/with-retries.js';
export type { OpenAIApi, OpenAIClientOptions } from './adapters/openai/openai-client.js';
export { OPENAI_BASE_URL, OpenAIClient } from './adapters/openai/openai-client.js';
export type { OpenAIReasoningEffort, OpenAIReasoningSummary } from './adapters/openai/responses-types.js';
