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
import { type AnthropicCacheOptions, placeCacheBreakpoints } from './cache-breakpoints.js';
import { toAnthropicPrompt } from './convert-messages.js';
import { mapAnthropicStream } from './map-stream.js';
import { toAnthropicTools, withAnswerTool } from './prepare-tools.js';
import { type AnthropicThinking, betaHeaderWith, maxTokensWith, toThinkingParam } from './thinking-options.js';

/** Anthropic's own endpoint, the default base URL. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Default `max_tokens` (the Messages API requires one). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Options of {@link AnthropicClient}. */
export interface AnthropicClientOptions extends HttpClientOptions {
  /** `max_tokens` of each turn. Default 4096, plus the thinking budget when there is one. */
  readonly maxTokens?: number;
  /**
   * Extended thinking: `{ budgetTokens }` (at least 1024), or `{ type: 'adaptive' }`. Off by
   * default. The turn's thinking blocks come back as reasoning parts of its message.
   */
  readonly thinking?: AnthropicThinking;
  /**
   * Prompt-cache breakpoints: on the last tool, the system prompt and the last message by
   * default; `false` places none.
   */
  readonly cache?: false | AnthropicCacheOptions;
}

type AnthropicSdk = typeof import('@anthropic-ai/sdk');

interface Loaded {
  readonly client: InstanceType<AnthropicSdk['Anthropic']>;
  readonly errors: SdkErrorClasses;
}

/**
 * A {@link ModelClient} for the Messages API with streaming, on the official
 * `@anthropic-ai/sdk` (an optional peer dependency, loaded on first use). Retries are ours.
 */
export class AnthropicClient implements ModelClient {
  /** The model requests ask for. */
  readonly model: string;
  /** `anthropic`, for traces (`gen_ai.provider.name`). */
  readonly provider = 'anthropic';
  /** Where requests go. */
  readonly baseURL: string;
  private readonly options: AnthropicClientOptions;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private loaded: Promise<Loaded> | undefined;

  constructor(options: AnthropicClientOptions) {
    const endpoint = resolveEndpoint(options, {
      client: 'AnthropicClient',
      defaultURL: ANTHROPIC_BASE_URL,
      keyVar: 'ANTHROPIC_API_KEY',
      urlVar: 'ANTHROPIC_BASE_URL',
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
    const body = this.body(messages, tools, options.output);
    const beta = betaHeaderWith(this.options.headers, this.options.thinking);
    const headers = beta === undefined ? {} : { headers: { 'anthropic-beta': beta } };
    yield* streamRequest({
      provider: 'anthropic',
      endpoint: this.baseURL,
      errors,
      timeoutMs: this.timeoutMs,
      retry: this.options.retry,
      onRetry: this.options.onRetry,
      signal: options.signal,
      open: (signal) =>
        client.messages.create(body, { signal, timeout: this.timeoutMs, maxRetries: 0, ...headers }).withResponse(),
      map: (events, where) => mapAnthropicStream(events, where, options.output?.name),
    });
  }

  /** The request body this client sends for these arguments, without sending it. */
  wireRequest(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options: ChatCompletionOptions = {},
  ): unknown {
    return this.body(messages, tools, options.output);
  }

  private body(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] | undefined,
    output: RequestedOutput | undefined,
  ) {
    const { temperature, thinking, cache } = this.options;
    const wireTools = withAnswerTool(toAnthropicTools(tools), output);
    const prompt = { ...toAnthropicPrompt(messages), tools: wireTools?.tools };
    const cached = cache === false ? prompt : placeCacheBreakpoints(prompt, cache);
    // With thinking on, the API takes no forced tool choice: the answer tool is only offered.
    const toolChoice = thinking === undefined ? wireTools?.toolChoice : undefined;
    return {
      model: this.model,
      max_tokens: maxTokensWith(this.options.maxTokens, DEFAULT_ANTHROPIC_MAX_TOKENS, thinking),
      messages: cached.messages,
      stream: true as const,
      ...(cached.system !== undefined ? { system: cached.system } : {}),
      ...(cached.tools ? { tools: cached.tools } : {}),
      ...(toolChoice ? { tool_choice: toolChoice } : {}),
      ...(thinking !== undefined ? { thinking: toThinkingParam(thinking) } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  }

  private load(): Promise<Loaded> {
    this.loaded ??= loadSdk('@anthropic-ai/sdk', () => import('@anthropic-ai/sdk')).then((sdk) => ({
      client: new sdk.Anthropic({
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
