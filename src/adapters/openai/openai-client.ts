import { HarnessError } from '../../core/errors.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient, RequestedOutput } from '../../core/model-client.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { HttpClientOptions } from '../http/client-options.js';
import { resolveEndpoint } from '../http/endpoint.js';
import { loadSdk } from '../http/load-sdk.js';
import { requestTimeout } from '../http/request-timeout.js';
import type { SdkErrorClasses } from '../http/sdk-errors.js';
import { type StreamRequest, streamRequest } from '../http/stream-request.js';
import { toOpenAIMessages } from './convert-messages.js';
import { mapOpenAIStream } from './map-stream.js';
import { toOpenAIResponseFormat, toOpenAITools } from './prepare-tools.js';
import { isOpenAIReasoningModel } from './reasoning-models.js';
import { mapResponsesStream } from './responses-map-stream.js';
import { responsesBody } from './responses-request.js';
import type { OpenAIReasoningEffort, OpenAIReasoningSummary } from './responses-types.js';

/** OpenAI's own endpoint, the default base URL. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Which OpenAI API a client speaks: Chat Completions or Responses. */
export type OpenAIApi = 'chat' | 'responses';

/** Options of {@link OpenAIClient}. */
export interface OpenAIClientOptions extends HttpClientOptions {
  /**
   * `responses` (the Responses API) or `chat` (Chat Completions). Default `responses` for
   * OpenAI's own endpoint, `chat` for any other base URL (compatible servers speak Chat Completions).
   */
  readonly api?: OpenAIApi;
  /** Ask for usage in the last chunk (`stream_options.include_usage`). Default true; turn off for servers that refuse it. Chat Completions only. */
  readonly includeUsage?: boolean;
  /** `max_completion_tokens` (Chat Completions) or `max_output_tokens` (Responses), when set. */
  readonly maxTokens?: number;
  /** `reasoning_effort` (Chat Completions) or `reasoning.effort` (Responses), when set. */
  readonly reasoningEffort?: OpenAIReasoningEffort;
  /** `reasoning.summary`, when set: the model streams a summary of its reasoning. Responses only. */
  readonly reasoningSummary?: OpenAIReasoningSummary;
  /**
   * Whether the model reasons, so that the Responses client asks for its reasoning items'
   * encrypted content (other models refuse the request). Default: guessed from the model name
   * (o-series, `gpt-5…`), or true when `reasoningEffort` or `reasoningSummary` is set.
   */
  readonly reasoningModel?: boolean;
  /**
   * `prompt_cache_key`: requests with the same key share OpenAI's prompt cache. Default, on the
   * Responses API, the stored session's id (`ChatCompletionOptions.sessionId`); Chat Completions
   * sends only this option (a compatible server may refuse the field).
   */
  readonly promptCacheKey?: string;
}

function chooseApi(api: unknown, baseURL: string): OpenAIApi {
  if (api === undefined) return baseURL === OPENAI_BASE_URL ? 'responses' : 'chat';
  if (api === 'chat' || api === 'responses') return api;
  throw new HarnessError('invalid_config', `OpenAIClient: api must be 'chat' or 'responses', got ${String(api)}`);
}

type OpenAISdk = typeof import('openai');

interface Loaded {
  readonly client: InstanceType<OpenAISdk['OpenAI']>;
  readonly errors: SdkErrorClasses;
}

/**
 * A {@link ModelClient} for OpenAI's Responses API or the Chat Completions API (see
 * {@link OpenAIClientOptions.api}) with streaming, on the official `openai` SDK (an optional peer
 * dependency, loaded on first use). Retries are ours (the SDK's are off) so that backoff is
 * injectable and `Retry-After` is honoured the same way for every provider.
 */
export class OpenAIClient implements ModelClient {
  /** The model requests ask for. */
  readonly model: string;
  /** `openai`, for traces (`gen_ai.provider.name`). */
  readonly provider = 'openai';
  /** Where requests go. */
  readonly baseURL: string;
  /** The API requests use. */
  readonly api: OpenAIApi;
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
    this.api = chooseApi(options.api, endpoint.baseURL);
    this.apiKey = endpoint.apiKey;
    this.timeoutMs = requestTimeout(options.timeoutMs);
  }

  async *chatCompletion(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const { client, errors } = await this.load();
    yield* streamRequest({
      provider: 'openai',
      endpoint: this.baseURL,
      errors,
      timeoutMs: this.timeoutMs,
      retry: this.options.retry,
      onRetry: this.options.onRetry,
      signal: options.signal,
      ...this.exchange(client, messages, tools, options),
    });
  }

  /** How a request of this client's API is sent, and how its stream reads. */
  private exchange(
    client: Loaded['client'],
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    { output, sessionId }: ChatCompletionOptions,
  ): Pick<StreamRequest, 'open' | 'map'> {
    const sdkOptions = (signal: AbortSignal) => ({ signal, timeout: this.timeoutMs, maxRetries: 0 });
    if (this.api === 'responses') {
      const body = this.responsesRequest(messages, tools, output, sessionId);
      return {
        open: (signal) => client.responses.create(body, sdkOptions(signal)).withResponse(),
        map: mapResponsesStream,
      };
    }
    const body = this.chatBody(messages, tools, output);
    return {
      open: (signal) => client.chat.completions.create(body, sdkOptions(signal)).withResponse(),
      map: mapOpenAIStream,
    };
  }

  /** The request body this client sends for these arguments (for its API), without sending it. */
  wireRequest(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    { output, sessionId }: ChatCompletionOptions = {},
  ): unknown {
    return this.api === 'responses'
      ? this.responsesRequest(messages, tools, output, sessionId)
      : this.chatBody(messages, tools, output);
  }

  private responsesRequest(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    output: RequestedOutput | undefined,
    sessionId: string | undefined,
  ) {
    return responsesBody(this.responsesSettings(sessionId), messages, tools, output);
  }

  private chatBody(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    output: RequestedOutput | undefined,
  ) {
    const wireTools = toOpenAITools(tools);
    const { includeUsage = true, maxTokens, temperature, reasoningEffort, promptCacheKey } = this.options;
    return {
      model: this.model,
      messages: toOpenAIMessages(messages),
      stream: true as const,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      ...(wireTools ? { tools: wireTools } : {}),
      ...(output ? { response_format: toOpenAIResponseFormat(output) } : {}),
      ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(reasoningEffort !== undefined ? { reasoning_effort: reasoningEffort } : {}),
      ...(promptCacheKey !== undefined ? { prompt_cache_key: promptCacheKey } : {}),
    };
  }

  private responsesSettings(sessionId: string | undefined) {
    const { reasoningEffort, reasoningSummary, reasoningModel, maxTokens, temperature } = this.options;
    const asked = reasoningEffort !== undefined || reasoningSummary !== undefined;
    return {
      model: this.model,
      reasoningModel: reasoningModel ?? (asked || isOpenAIReasoningModel(this.model)),
      reasoningEffort,
      reasoningSummary,
      promptCacheKey: this.options.promptCacheKey ?? sessionId,
      maxTokens,
      temperature,
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
