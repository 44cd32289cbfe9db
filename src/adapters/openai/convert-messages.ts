import { contentText } from '../../core/content-parts.js';
import type { Message, ToolCall } from '../../core/messages.js';
import type { OpenAIMessage } from './openai-types.js';

/** A call's arguments as the JSON text OpenAI's APIs take (raw text passes as it is). */
export function wireArguments(call: ToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function convertMessage(message: Message): OpenAIMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: contentText(message.content) };
    case 'tool':
      return { role: 'tool', tool_call_id: message.callId, content: contentText(message.content) };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.callId,
          type: 'function',
          function: { name: call.name, arguments: wireArguments(call) },
        })),
      };
    }
  }
}

/** Our messages in Chat Completions shape: tool calls as `tool_calls`, results as `tool` messages. */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  return messages.map(convertMessage);
}
