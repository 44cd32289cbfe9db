import { fallbackClient } from '../adapters/fallback/fallback-client.js';
import type { RetryOptions } from '../adapters/http/retry-policy.js';
import type { RetryNotice } from '../adapters/http/with-retries.js';
import type { ModelClient } from '../core/model-client.js';
import { aiSdkClients } from './ai-sdk-provider.js';
import { type Env, makeClient } from './make-client.js';
import { isAiSdkProvider, type RunProvider } from './run-options.js';

/** Which model client `run` or `worker` talks to, from their flags. */
export interface CliClientChoice {
  readonly provider: RunProvider;
  readonly model: string;
  /** `--fallback` models of the same provider, in order. */
  readonly fallback?: readonly string[];
  /** `--base-url` (built-in providers only). */
  readonly baseURL: string | undefined;
  /** The workspace: an AI SDK provider package is looked for there first. */
  readonly cwd: string;
}

/** How the client retries, and where it says so. */
export interface CliClientOptions {
  readonly retry?: RetryOptions | undefined;
  readonly onRetry?: ((notice: RetryNotice) => void) | undefined;
}

/**
 * The model client of `run` and `worker`: the provider's (an AI SDK package's, loaded now), or
 * with `--fallback` a chain over the model and its fallbacks, all of the same provider. A missing
 * key or package is a usage error saying what to do.
 */
export async function cliClient(
  choice: CliClientChoice,
  env: Env,
  options: CliClientOptions = {},
): Promise<ModelClient> {
  const models = [choice.model, ...(choice.fallback ?? [])];
  const { provider } = choice;
  const clients = isAiSdkProvider(provider)
    ? await aiSdkClients(provider, models, choice.cwd)
    : models.map((model) =>
        makeClient({ provider, model, baseURL: choice.baseURL, retry: options.retry, onRetry: options.onRetry }, env),
      );
  return clients.length === 1 ? (clients[0] as ModelClient) : fallbackClient(clients);
}
