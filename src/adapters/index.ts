/**
 * The face of `adapters/` (row 3): the model clients (OpenAI, Anthropic, scripted), their HTTP
 * options, errors and retries, and the price table.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type { FromAiSdkOptions } from './ai-sdk/ai-sdk-client.js';
export { fromAiSdk } from './ai-sdk/ai-sdk-client.js';
export type {
  AiSdkCallOptions,
  AiSdkLanguageModel,
  AiSdkProviderMetadata,
  AiSdkStreamPart,
} from './ai-sdk/ai-sdk-types.js';
export type { AnthropicClientOptions } from './anthropic/anthropic-client.js';
export { ANTHROPIC_BASE_URL, AnthropicClient } from './anthropic/anthropic-client.js';
export type { FallbackOptions } from './fallback/fallback-client.js';
export { fallbackClient } from './fallback/fallback-client.js';
export type { FallbackFailure } from './fallback/fallback-error.js';
export { FallbackError } from './fallback/fallback-error.js';
export type { FallbackReason } from './fallback/fallback-reason.js';
export { DEFAULT_FALLBACK_ON } from './fallback/fallback-reason.js';
export type { HttpClientOptions } from './http/client-options.js';
export type { ModelErrorKind, ModelErrorOptions } from './http/model-error.js';
export { ModelError } from './http/model-error.js';
export type { RetryOptions } from './http/retry-policy.js';
export type { Sleep } from './http/sleep.js';
export type { RetryNotice } from './http/with-retries.js';
export type { OpenAIApi, OpenAIClientOptions } from './openai/openai-client.js';
export { OPENAI_BASE_URL, OpenAIClient } from './openai/openai-client.js';
export type { OpenAIReasoningEffort, OpenAIReasoningSummary } from './openai/responses-types.js';
export type { BudgetRates, ModelPrice } from './prices.js';
export { MODEL_PRICES, PRICES_AS_OF, PriceTable } from './prices.js';
export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from './scripted-client.js';
export { ScriptedClient } from './scripted-client.js';
