// agent-harness/anthropic: the Anthropic model client.
export type {
  AnthropicClientOptions,
  HttpClientOptions,
  ModelErrorKind,
  ModelErrorOptions,
  RetryNotice,
  RetryOptions,
  Sleep,
} from './adapters/index.js';
export { ANTHROPIC_BASE_URL, AnthropicClient, ModelError } from './adapters/index.js';
