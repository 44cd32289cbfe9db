import { type TokenUsage, tokenUsage } from '../../core/usage.js';
import type { AnthropicUsage } from './anthropic-types.js';

/** Running usage of one streamed message: `message_start` gives input, `message_delta` output. */
export interface AnthropicUsageTotals {
  input: number;
  output: number;
}

/** Folds one usage report into the totals; later reports are cumulative, so they replace. */
export function foldAnthropicUsage(totals: AnthropicUsageTotals, usage: AnthropicUsage | null | undefined): void {
  if (!usage) return;
  const cached = (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  if (usage.input_tokens != null) totals.input = usage.input_tokens + cached;
  if (usage.output_tokens != null) totals.output = usage.output_tokens;
}

/** The totals as ours: prompt tokens include cache writes and reads. */
export function convertAnthropicUsage(totals: AnthropicUsageTotals): TokenUsage {
  return tokenUsage(totals.input, totals.output);
}
