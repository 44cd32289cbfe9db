import { HarnessError } from '../../core/errors.js';
import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../../core/model-client.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { ModelError } from '../http/model-error.js';
import { classifyAiSdkError } from './ai-sdk-errors.js';
import type {
  AiSdkCallOptions,
  AiSdkLanguageModel,
  AiSdkProviderMetadata,
  AiSdkSpecification,
  AiSdkStreamPart,
} from './ai-sdk-types.js';
import { convertPrompt, convertTools } from './convert-prompt.js';
import { mapAiSdkStream } from './map-stream.js';

/** Options of {@link fromAiSdk}. */
export interface FromAiSdkOptions {
  /** The most tokens an answer may have (`maxOutputTokens`); the provider's default when absent. */
  readonly maxOutputTokens?: number;
  /** Sampling temperature; the provider's default when absent. */
  readonly temperature?: number;
  /** Options for the provider, as the AI SDK takes them: `{ google: { thinkingConfig: … } }`. */
  readonly providerOptions?: AiSdkProviderMetadata;
}

const VERSIONS = new Set<string>(['v2', 'v3', 'v4'] satisfies AiSdkSpecification[]);

/** Settles when `signal` aborts (never without one): a provider that ignores the signal still stops. */
function aborted(signal: AbortSignal | undefined): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

async function* readAll(
  reader: ReadableStreamDefaultReader<AiSdkStreamPart>,
  signal: AbortSignal | undefined,
  where: string,
): AsyncGenerator<AiSdkStreamPart> {
  const abort = aborted(signal);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), abort]);
      if (next === 'aborted') throw new ModelError('aborted', `${where}: the request was aborted`);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // The turn ended early (an error, an abort, or the consumer stopped): stop the provider's stream.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * A {@link ModelClient} over an AI SDK language model (`LanguageModelV4`, V3 or V2, from any
 * provider package: `@ai-sdk/google`, `@ai-sdk/amazon-bedrock`, `@ai-sdk/openai-compatible`, …).
 * Streams text, reasoning, tool calls with their argument deltas, usage (cached and reasoning
 * tokens where the provider gives them) and the finish reason. Failures are {@link ModelError}s
 * with the HTTP status's kind (so a fallback chain can switch on them); an abort cancels the
 * provider's request. Requests are not retried here: the provider packages do not retry either.
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: FromAiSdkOptions = {}): ModelClient {
  if (typeof model?.doStream !== 'function' || !VERSIONS.has(model.specificationVersion)) {
    throw new HarnessError(
      'invalid_argument',
      `fromAiSdk takes an AI SDK language model (specification v2, v3 or v4 with doStream), got ${
        typeof model?.specificationVersion === 'string' ? `specification ${model.specificationVersion}` : typeof model
      }`,
    );
  }
  const provider = model.provider;
  const where = `${provider} model ${model.modelId}`;
  const spec = model.specificationVersion as AiSdkSpecification;
  return Object.freeze({
    model: model.modelId,
    provider,
    async *chatCompletion(
      messages: readonly Message[],
      tools?: readonly ToolDefinition[],
      requestOptions: ChatCompletionOptions = {},
    ): AsyncGenerator<StreamEvent> {
      const { signal, output } = requestOptions;
      const call: AiSdkCallOptions = { prompt: convertPrompt(messages, spec) };
      if (tools !== undefined && tools.length > 0) call.tools = convertTools(tools);
      if (output !== undefined) call.responseFormat = { type: 'json', schema: output.schema, name: output.name };
      if (signal !== undefined) call.abortSignal = signal;
      if (options.maxOutputTokens !== undefined) call.maxOutputTokens = options.maxOutputTokens;
      if (options.temperature !== undefined) call.temperature = options.temperature;
      if (options.providerOptions !== undefined) call.providerOptions = options.providerOptions;
      let reader: ReadableStreamDefaultReader<AiSdkStreamPart>;
      try {
        reader = (await model.doStream(call)).stream.getReader();
      } catch (error) {
        throw classifyAiSdkError(error, where, signal);
      }
      try {
        yield* mapAiSdkStream(readAll(reader, signal, where), provider, where, signal);
      } catch (error) {
        throw classifyAiSdkError(error, where, signal);
      }
    },
  });
}
