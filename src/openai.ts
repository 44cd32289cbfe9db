// agent-harness/openai: the OpenAI (and OpenAI-compatible) model client.
export type {
  HttpClientOptions,
  ModelErrorKind,
  ModelErrorOptions,
  OpenAIClientOptions,
  RetryNotice,
  RetryOptions,
  Sleep,
} from './adapters/index.js';
export { ModelError, OPENAI_BASE_URL, OpenAIClient } from './adapters/index.js';
