/**
 * Any provider through the Vercel AI SDK (`agent-harness/ai-sdk`): `fromAiSdk(model)` turns an
 * AI SDK language model (`@ai-sdk/google`, `@ai-sdk/amazon-bedrock`, `@ai-sdk/openai-compatible`,
 * …) into a model client. `@ai-sdk/provider` is an optional peer: only its shape is used.
 */

export type { FromAiSdkOptions } from './adapters/ai-sdk/ai-sdk-client.js';
export { fromAiSdk } from './adapters/ai-sdk/ai-sdk-client.js';
export type {
  AiSdkCallOptions,
  AiSdkLanguageModel,
  AiSdkProviderMetadata,
  AiSdkStreamPart,
} from './adapters/ai-sdk/ai-sdk-types.js';
export type { ModelErrorKind } from './adapters/http/model-error.js';
export { ModelError } from './adapters/http/model-error.js';
