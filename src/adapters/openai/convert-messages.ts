import { contentText, hasAttachments } from '../../core/content-parts.js';
import type { Message, ToolCall } from '../../core/messages.js';
import { type ChatToolResult, chatToolResult, chatUserParts } from './convert-parts.js';
import type { OpenAIContentPart, OpenAIMessage } from './openai-types.js';

/** A call's arguments as the JSON text OpenAI's APIs take (raw text passes as it is). */
export function wireArguments(call: ToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function assistantMessage(message: Extract<Message, { role: 'assistant' }>): OpenAIMessage {
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

/** The heading of the images and files a tool call returned, in the user message after the results. */
function returnedBy(callId: string, attachments: readonly OpenAIContentPart[]): OpenAIContentPart {
  const images = attachments.some((part) => part.type === 'image_url');
  const files = attachments.some((part) => part.type === 'file');
  const what = images && files ? 'Images and files' : images ? 'Images' : 'Files';
  return { type: 'text', text: `${what} returned by tool call ${callId}:` };
}

/**
 * Our messages in Chat Completions shape: tool calls as `tool_calls`, results as `tool` messages,
 * a user message of parts as content parts (see `chatAttachment`). A `tool` message takes text
 * only, so the images and PDFs of a turn's results follow its last `tool` message in one user
 * message, each under the id of the call that returned it (never between the results of one
 * turn, which must follow its calls unbroken). A file given by URL is refused (`invalid_content`).
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  let returned: OpenAIContentPart[] = [];
  const flush = (): void => {
    if (returned.length > 0) out.push({ role: 'user', content: returned });
    returned = [];
  };
  messages.forEach((message, index) => {
    if (message.role !== 'tool') flush();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const { content } = message;
        const where = `message ${index} (user)`;
        // Text parts alone go as a string, which every compatible server takes.
        const plain = typeof content === 'string' || !hasAttachments(content);
        out.push({ role: 'user', content: plain ? contentText(content) : chatUserParts(content, where) });
        break;
      }
      case 'tool': {
        const where = `message ${index} (result of tool call ${message.callId})`;
        const result: ChatToolResult =
          typeof message.content === 'string'
            ? { text: message.content, attachments: [] }
            : chatToolResult(message.content, where);
        out.push({ role: 'tool', tool_call_id: message.callId, content: result.text });
        if (result.attachments.length > 0)
          returned.push(returnedBy(message.callId, result.attachments), ...result.attachments);
        break;
      }
      case 'assistant':
        out.push(assistantMessage(message));
        break;
    }
  });
  flush();
  return out;
}
