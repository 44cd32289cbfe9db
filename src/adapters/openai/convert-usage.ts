import { type TokenUsage, tokenUsage } from '../../core/usage.js';
import type { OpenAIUsage } from './openai-types.js';

/** Chat Completions usage as ours; a missing `total_tokens` is the sum. */
export function convertOpenAIUsage(usage: OpenAIUsage): TokenUsage {
  return tokenUsage(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens ?? undefined);
}
