import { ANTHROPIC_BASE_URL, AnthropicClient } from '../adapters/anthropic/anthropic-client.js';
import type { RetryOptions } from '../adapters/http/retry-policy.js';
import type { RetryNotice } from '../adapters/http/with-retries.js';
import { OPENAI_BASE_URL, OpenAIClient } from '../adapters/openai/openai-client.js';
import type { ModelClient } from '../core/model-client.js';
import { hasCredentials, redactUrl } from '../core/redact-url.js';
import type { Provider } from './run-options.js';
import { UsageError } from './usage-error.js';

/** Environment variables, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What {@link makeClient} needs besides the provider and model. */
export interface ClientChoice {
  readonly provider: Provider;
  readonly model: string;
  readonly baseURL: string | undefined;
  readonly retry?: RetryOptions | undefined;
  readonly onRetry?: ((notice: RetryNotice) => void) | undefined;
}

const SETTINGS = {
  openai: { keyVar: 'OPENAI_API_KEY', urlVar: 'OPENAI_BASE_URL', defaultURL: OPENAI_BASE_URL },
  anthropic: { keyVar: 'ANTHROPIC_API_KEY', urlVar: 'ANTHROPIC_BASE_URL', defaultURL: ANTHROPIC_BASE_URL },
} as const;

function checkedURL(url: string, from: string, keyVar: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new UsageError(`${from} must be an http(s) URL, got '${redactUrl(url)}'`);
  }
  // fetch refuses such URLs, so they cannot work; and the password would be shown in every
  // error line and saved in the journal.
  if (hasCredentials(url)) {
    throw new UsageError(
      `${from} must not carry a user name or password (got '${redactUrl(url)}'): put the key in ${keyVar}`,
    );
  }
  return url;
}

/**
 * The server a client of `choice` talks to: `--base-url`, else `OPENAI_BASE_URL`/`ANTHROPIC_BASE_URL`,
 * else the provider's own; a {@link UsageError} when it is not http(s) or carries credentials.
 */
export function clientBaseURL(choice: Pick<ClientChoice, 'provider' | 'baseURL'>, env: Env): string {
  const { keyVar, urlVar, defaultURL } = SETTINGS[choice.provider];
  const from = choice.baseURL !== undefined ? '--base-url' : urlVar;
  return checkedURL(choice.baseURL ?? env[urlVar] ?? defaultURL, from, keyVar);
}

/**
 * The model client for a provider: the key from `OPENAI_API_KEY`/`ANTHROPIC_API_KEY`, the base
 * URL from `--base-url`, else `OPENAI_BASE_URL`/`ANTHROPIC_BASE_URL`, else the provider's own.
 * A missing key for the provider's own endpoint is a {@link UsageError}; a self-hosted server
 * may need none.
 */
export function makeClient(choice: ClientChoice, env: Env): ModelClient {
  const { keyVar, defaultURL } = SETTINGS[choice.provider];
  const baseURL = clientBaseURL(choice, env);
  const apiKey = env[keyVar] ?? '';
  if (apiKey === '' && baseURL.replace(/\/+$/, '') === defaultURL) {
    throw new UsageError(`${keyVar} is not set: export it, or point --base-url at a server that needs no key`);
  }
  const common = { model: choice.model, apiKey, baseURL, retry: choice.retry, onRetry: choice.onRetry };
  return choice.provider === 'openai' ? new OpenAIClient(common) : new AnthropicClient(common);
}
