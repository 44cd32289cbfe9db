import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient, RequestedOutput } from '../../core/model-client.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { HttpClientOptions } from '../http/client-options.js';
import { resolveEndpoint } from '../http/endpoint.js';
import { loadSdk } from '../http/load-sdk.js';
import { requestTimeout } from '../http/request-timeout.js';
import type { SdkErrorClasses } from '../http/sdk-errors.js';
import { streamRequest } from '../http/stream-request.js';
import { toOpenAIMessages } from './convert-messages.js';
import { mapOpenAIStream } from './map-stream.js';
import { toOpenAIResponseFormat, toOpenAITools } from './prepare-tools.js';

/** OpenAI's own endpoint, the default base URL. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Options of {@link OpenAIClient}. */
export interface OpenAIClientOptions extends HttpClientOptions {
  /** Ask for usage in the last chunk (`stream_options.include_usage`). Default true; turn off for servers that refuse it. */
  readonly includeUsage?: boolean;
  /** `max_completion_tokens`, when set. */
  readonly maxTokens?: number;
}

type OpenAISdk = typeof import('openai');

interface Loaded {
  readonly client: InstanceType<OpenAISdk['OpenAI']>;
  readonly errors: SdkErrorClasses;
}

/**
 * A {@link ModelClient} for the Chat Completions API with streaming, on the official `openai`
 * SDK (an optional peer dependency, loaded on first use). Retries are ours (the SDK's are off)
 * so that backoff is injectable and `Retry-After` is honoured the same way for every provider.
 */
export class OpenAIClient implements ModelClient {
  /** The model requests ask for. */
  readonly model: string;
  /** `openai`, for traces (`gen_ai.provider.name`). */
  readonly provider = 'openai';
  /** Where requests go. */
  readonly baseURL: string;
  private readonly options: OpenAIClientOptions;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private loaded: Promise<Loaded> | undefined;

  constructor(options: OpenAIClientOptions) {
    const endpoint = resolveEndpoint(options, {
      client: 'OpenAIClient',
      defaultURL: OPENAI_BASE_URL,
      keyVar: 'OPENAI_API_KEY',
      urlVar: 'OPENAI_BASE_URL',
    });
    this.options = options;
    this.model = endpoint.model;
    this.baseURL = endpoint.baseURL;
    this.apiKey = endpoint.apiKey;
    this.timeoutMs = requestTimeout(options.timeoutMs);
  }

  async *chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const { client, errors } = await this.load();
    const { timeoutMs } = this;
    const body = this.body(messages, tools, options.output);
    yield* streamRequest({
      provider: 'openai',
      endpoint: this.baseURL,
      errors,
      timeoutMs,
      retry: this.options.retry,
      onRetry: this.options.onRetry,
      signal: options.signal,
      open: (signal) =>
        client.chat.completions.create(body, { signal, timeout: timeoutMs, maxRetries: 0 }).withResponse(),
      map: mapOpenAIStream,
    });
  }

  private body(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    output: RequestedOutput | undefined,
  ) {
    const wireTools = toOpenAITools(tools);
    const { includeUsage = true, maxTokens, temperature } = this.options;
    return {
      model: this.model,
      messages: toOpenAIMessages(messages),
      stream: true as const,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      ...(wireTools ? { tools: wireTools } : {}),
      ...(output ? { response_format: toOpenAIResponseFormat(output) } : {}),
      ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  }

  private load(): Promise<Loaded> {
    this.loaded ??= loadSdk('openai', () => import('openai')).then((sdk) => ({
      client: new sdk.OpenAI({
        apiKey: this.apiKey,
        baseURL: this.baseURL,
        maxRetries: 0,
        ...(this.options.headers ? { defaultHeaders: { ...this.options.headers } } : {}),
      }),
      errors: sdk,
    }));
    return this.loaded;
  }
}
