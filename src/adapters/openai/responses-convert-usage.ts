import type { TokenUsage } from '../../core/usage.js';
import type { ResponsesUsage } from './responses-types.js';

/**
 * Responses usage as ours: cached input tokens (`input_tokens_details.cached_tokens`) and
 * reasoning tokens (`output_tokens_details.reasoning_tokens`) when reported; a missing total is
 * the sum.
 */
export function convertResponsesUsage(usage: ResponsesUsage): TokenUsage {
  const cached = usage.input_tokens_details?.cached_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  return Object.freeze({
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    totalTokens: usage.total_tokens ?? usage.input_tokens + usage.output_tokens,
    ...(cached !== undefined && cached !== null ? { cachedPromptTokens: cached } : {}),
    ...(reasoning !== undefined && reasoning !== null ? { reasoningTokens: reasoning } : {}),
  });
}
