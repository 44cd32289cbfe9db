import type { TokenUsage } from '../../core/usage.js';
import type { AnthropicUsage } from './anthropic-types.js';

/**
 * Running usage of one streamed message: `message_start` gives input and cache counts,
 * `message_delta` output (and, from some models, the input counts again).
 */
export interface AnthropicUsageTotals {
  /** Input tokens neither read from nor written to the cache. */
  input: number;
  /** Output tokens, thinking included. */
  output: number;
  /** Input tokens read from the cache, when reported. */
  cacheRead?: number;
  /** Input tokens written to the cache, when reported. */
  cacheWrite?: number;
  /** Of the output, tokens spent thinking, when reported. */
  thinking?: number;
}

/** Folds one usage report into the totals; later reports are cumulative, so they replace. */
export function foldAnthropicUsage(totals: AnthropicUsageTotals, usage: AnthropicUsage | null | undefined): void {
  if (!usage) return;
  if (usage.input_tokens != null) totals.input = usage.input_tokens;
  if (usage.output_tokens != null) totals.output = usage.output_tokens;
  if (usage.cache_read_input_tokens != null) totals.cacheRead = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens != null) totals.cacheWrite = usage.cache_creation_input_tokens;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (thinking != null) totals.thinking = thinking;
}

/**
 * The totals as ours: prompt tokens include cache writes and reads, which are also given apart
 * (`cachedPromptTokens`, `cacheWriteTokens`) when the API reported them; thinking tokens, when
 * reported, as `reasoningTokens` (of the completion tokens).
 */
export function convertAnthropicUsage(totals: AnthropicUsageTotals): TokenUsage {
  const { cacheRead, cacheWrite, thinking } = totals;
  const promptTokens = totals.input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  return Object.freeze({
    promptTokens,
    completionTokens: totals.output,
    totalTokens: promptTokens + totals.output,
    ...(cacheRead !== undefined ? { cachedPromptTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
    ...(thinking !== undefined ? { reasoningTokens: thinking } : {}),
  });
}
