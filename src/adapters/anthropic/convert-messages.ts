import { contentText } from '../../core/content-parts.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { Message, ToolCall } from '../../core/messages.js';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-types.js';
import { partBlocks } from './convert-parts.js';
import { toThinkingBlocks } from './convert-reasoning.js';

/** What the Messages API takes: the system prompt apart, and alternating user/assistant turns. */
export interface AnthropicPrompt {
  readonly system: string | undefined;
  readonly messages: AnthropicMessage[];
}

function toolInput(call: ToolCall): Record<string, unknown> {
  if (typeof call.arguments !== 'string') return call.arguments;
  // Refused as too deep by the registry: its tool_result says so, and a deep input is not re-sent.
  if (nestedDeeperThan(call.arguments, MAX_JSON_DEPTH)) return {};
  try {
    const value: unknown = JSON.parse(call.arguments);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {}; // the model sent text that is not JSON; its tool_result already says so
  }
}

function toolResultBlock(message: Extract<Message, { role: 'tool' }>): AnthropicContentBlock {
  const { content } = message;
  if (typeof content !== 'string') {
    const blocks = partBlocks(content);
    // Parts that make no block (empty text only): the result as text, so it is never empty.
    return {
      type: 'tool_result',
      tool_use_id: message.callId,
      content: blocks.length > 0 ? blocks : contentText(content),
    };
  }
  const isError = content.startsWith('Error: ');
  return { type: 'tool_result', tool_use_id: message.callId, content, ...(isError ? { is_error: true } : {}) };
}

function textBlocks(text: string): AnthropicContentBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function blocksOf(message: Exclude<Message, { role: 'system' }>): AnthropicContentBlock[] {
  switch (message.role) {
    case 'tool':
      return [toolResultBlock(message)];
    case 'user':
      return typeof message.content === 'string' ? textBlocks(message.content) : partBlocks(message.content);
    case 'assistant': {
      const uses = (message.toolCalls ?? []).map(
        (call): AnthropicContentBlock => ({
          type: 'tool_use',
          id: call.callId,
          name: call.name,
          input: toolInput(call),
        }),
      );
      // Thinking first, then text, then tool use: the order the API checks in a tool loop.
      return [...toThinkingBlocks(message.reasoning), ...textBlocks(message.content), ...uses];
    }
  }
}

/**
 * Our messages as a Messages API prompt: system messages lifted out (joined), `tool` messages
 * as `tool_result` blocks of a user turn (parts as its content blocks, see `partBlocks`), a user
 * message's parts as blocks, an assistant message's own reasoning parts as its
 * first blocks, and consecutive same-role messages merged into one turn (so several results,
 * and a harness note after them, share one user turn, results first).
 */
export function toAnthropicPrompt(messages: readonly Message[]): AnthropicPrompt {
  const system: string[] = [];
  const turns: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: turns };
}
