import { type TokenUsage, tokenUsage } from '../../core/usage.js';
import type { OpenAIUsage } from './openai-types.js';

/**
 * Chat Completions usage as ours; a missing `total_tokens` is the sum. Cached prompt tokens
 * (`prompt_tokens_details.cached_tokens`) and reasoning tokens
 * (`completion_tokens_details.reasoning_tokens`) are kept when the server reports some (OpenAI
 * sends the details with zeros on every response; a zero adds nothing).
 */
export function convertOpenAIUsage(usage: OpenAIUsage): TokenUsage {
  const totals = tokenUsage(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens ?? undefined);
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  if (cached === 0 && reasoning === 0) return totals;
  return Object.freeze({
    ...totals,
    ...(cached === 0 ? {} : { cachedPromptTokens: cached }),
    ...(reasoning === 0 ? {} : { reasoningTokens: reasoning }),
  });
}
