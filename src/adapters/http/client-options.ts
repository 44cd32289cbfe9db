import type { RetryOptions } from './retry-policy.js';
import type { RetryNotice } from './with-retries.js';

/** Options every HTTP model client takes. */
export interface HttpClientOptions {
  /** Model name the server knows (`gpt-4.1-mini`, `claude-sonnet-4-5`, `qwen2.5:7b`, …). */
  readonly model: string;
  /** API key; default the provider's environment variable. May be omitted for a self-hosted `baseURL`. */
  readonly apiKey?: string;
  /** Where requests go; default the provider's base URL variable, else its own endpoint. */
  readonly baseURL?: string;
  /** Extra HTTP headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds to wait for the response to start, and between two chunks of it. Default 120000. */
  readonly timeoutMs?: number;
  /** Retries of 429, 5xx and dropped connections. */
  readonly retry?: RetryOptions;
  /** Called before each retry (for logging). */
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Sampling temperature, when set. */
  readonly temperature?: number;
}
