import type { Message } from '../core/messages.js';
import type { ToolDefinition } from '../core/tool-params.js';
import { estimateContentTokens } from './part-tokens.js';

/** Characters per token the estimate assumes: about right for English prose and code. */
export const CHARS_PER_TOKEN = 4;
/** Tokens a message costs beyond its text (role and framing), as providers count them. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Estimated tokens of a text: its length in UTF-16 units divided by {@link CHARS_PER_TOKEN}, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Estimated tokens of one message in a request: its content ({@link estimateContentTokens}), each tool call's name and arguments
 * (as JSON), and {@link MESSAGE_OVERHEAD_TOKENS}.
 */
export function estimateMessageTokens(message: Message): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateContentTokens(message.content);
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    for (const call of message.toolCalls) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      tokens += MESSAGE_OVERHEAD_TOKENS + estimateTokens(call.name) + estimateTokens(args);
    }
  }
  return tokens;
}

/** Estimated tokens of the tool definitions a request carries (their JSON); 0 without tools. */
export function estimateToolTokens(tools: readonly ToolDefinition[] | undefined): number {
  return tools === undefined || tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools));
}

/**
 * Estimated tokens of a whole context: the sum of {@link estimateMessageTokens}. Used when the
 * provider has not reported usage; a provider's reported prompt tokens are preferred.
 */
export function estimateContextTokens(messages: readonly Message[]): number {
  let tokens = 0;
  for (const message of messages) tokens += estimateMessageTokens(message);
  return tokens;
}
