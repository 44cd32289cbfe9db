import type { Message } from '../../core/messages.js';
import type { RequestedOutput } from '../../core/model-client.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import { toResponsesPrompt } from './responses-convert-input.js';
import { toResponsesTextFormat, toResponsesTools } from './responses-prepare-tools.js';
import type { OpenAIReasoningEffort, OpenAIReasoningSummary } from './responses-types.js';

/** What a Responses request is made of, besides the conversation. */
export interface ResponsesRequestSettings {
  readonly model: string;
  /** Ask for reasoning items with their encrypted content (reasoning models only). */
  readonly reasoningModel: boolean;
  readonly reasoningEffort?: OpenAIReasoningEffort | undefined;
  readonly reasoningSummary?: OpenAIReasoningSummary | undefined;
  readonly promptCacheKey?: string | undefined;
  readonly maxTokens?: number | undefined;
  readonly temperature?: number | undefined;
}

/**
 * The body of a streamed Responses request. Nothing is stored server-side (`store: false`): a
 * reasoning model's items come back with their encrypted content
 * (`include: ['reasoning.encrypted_content']`) and are sent back with the next request.
 */
export function responsesBody(
  settings: ResponsesRequestSettings,
  messages: readonly Message[],
  tools: readonly ToolDefinition[] | undefined,
  output: RequestedOutput | undefined,
) {
  const { instructions, input } = toResponsesPrompt(messages);
  const wireTools = toResponsesTools(tools);
  const { reasoningEffort: effort, reasoningSummary: summary, promptCacheKey, maxTokens, temperature } = settings;
  const reasoning = {
    ...(effort !== undefined ? { effort } : {}),
    ...(summary !== undefined ? { summary } : {}),
  };
  return {
    model: settings.model,
    ...(instructions !== undefined ? { instructions } : {}),
    input,
    stream: true as const,
    store: false,
    ...(settings.reasoningModel ? { include: ['reasoning.encrypted_content' as const] } : {}),
    ...(effort !== undefined || summary !== undefined ? { reasoning } : {}),
    ...(wireTools ? { tools: wireTools } : {}),
    ...(output ? { text: toResponsesTextFormat(output) } : {}),
    ...(promptCacheKey !== undefined ? { prompt_cache_key: promptCacheKey } : {}),
    ...(maxTokens !== undefined ? { max_output_tokens: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}
