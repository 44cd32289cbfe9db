import { HarnessError } from '../../core/errors.js';
import { hasCredentials, redactUrl } from '../../core/redact-url.js';

/** Where a provider's endpoint and key come from when the options leave them out. */
export interface EndpointDefaults {
  /** The client's name, for error messages (`OpenAIClient`). */
  readonly client: string;
  /** The provider's own base URL. */
  readonly defaultURL: string;
  /** Environment variable of the key (`OPENAI_API_KEY`). */
  readonly keyVar: string;
  /** Environment variable of the base URL (`OPENAI_BASE_URL`). */
  readonly urlVar: string;
}

/** A model endpoint ready to call. */
export interface Endpoint {
  readonly model: string;
  /** Base URL without a trailing slash. */
  readonly baseURL: string;
  /** The key; `'no-key'` for a self-hosted server that needs none. */
  readonly apiKey: string;
}

/**
 * Resolves model, base URL (option, else environment, else the provider's) and key (option,
 * else environment). A missing model, a base URL with a user name or password, or a missing
 * key for the provider's own endpoint, is an `invalid_config` error; a self-hosted server may
 * need no key.
 */
export function resolveEndpoint(
  options: { readonly model?: unknown; readonly apiKey?: string; readonly baseURL?: string },
  defaults: EndpointDefaults,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Endpoint {
  if (typeof options?.model !== 'string' || options.model === '') {
    throw new HarnessError('invalid_config', `${defaults.client} needs a model name`);
  }
  const baseURL = (options.baseURL ?? env[defaults.urlVar] ?? defaults.defaultURL).replace(/\/+$/, '');
  if (hasCredentials(baseURL)) {
    // fetch refuses such URLs; and every error message would show the password.
    throw new HarnessError(
      'invalid_config',
      `${defaults.client}: the base URL must not carry a user name or password (got '${redactUrl(baseURL)}'); pass the key as apiKey or in ${defaults.keyVar}`,
    );
  }
  const apiKey = options.apiKey ?? env[defaults.keyVar];
  if ((apiKey === undefined || apiKey === '') && baseURL === defaults.defaultURL) {
    throw new HarnessError(
      'invalid_config',
      `no API key for ${defaults.defaultURL}: pass apiKey or set ${defaults.keyVar}`,
    );
  }
  return { model: options.model, baseURL, apiKey: apiKey || 'no-key' };
}
