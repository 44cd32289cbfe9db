import type { ReasoningContent } from '../../core/messages.js';
import type { AnthropicRedactedThinkingBlock, AnthropicThinkingBlock } from './anthropic-types.js';

/** The provider name reasoning parts made by the Messages API carry. */
export const ANTHROPIC_PROVIDER = 'anthropic';

/**
 * An assistant message's reasoning parts as the thinking blocks to send back, in order, exactly
 * as they came: `thinking` with its signature, `redacted_thinking` with its data. Parts another
 * provider made are left out (the API could not verify them).
 */
export function toThinkingBlocks(
  reasoning: readonly ReasoningContent[] | undefined,
): (AnthropicThinkingBlock | AnthropicRedactedThinkingBlock)[] {
  const blocks: (AnthropicThinkingBlock | AnthropicRedactedThinkingBlock)[] = [];
  for (const part of reasoning ?? []) {
    if (part.provider !== ANTHROPIC_PROVIDER) continue;
    if (part.type === 'redacted_reasoning') blocks.push({ type: 'redacted_thinking', data: part.data });
    else blocks.push({ type: 'thinking', thinking: part.text ?? '', signature: part.signature ?? '' });
  }
  return blocks;
}
