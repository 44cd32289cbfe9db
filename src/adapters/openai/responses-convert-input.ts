import type { AssistantMessage, Message, ReasoningContent, ReasoningPart } from '../../core/messages.js';
import { wireArguments } from './convert-messages.js';
import { responsesContent } from './responses-convert-parts.js';
import type { ResponsesInputItem, ResponsesReasoningInput } from './responses-types.js';

/** The provider name reasoning parts of this API carry; parts of any other are never sent. */
export const RESPONSES_PROVIDER = 'openai';

/** What the Responses API takes: the system prompt as `instructions`, the rest as `input` items. */
export interface ResponsesPrompt {
  readonly instructions: string | undefined;
  readonly input: ResponsesInputItem[];
}

/** A part this API made and can take back: ours, with the item id it was returned under. */
function isOwnReasoning(part: ReasoningContent): part is ReasoningPart & { id: string } {
  return part.type === 'reasoning' && part.provider === RESPONSES_PROVIDER && typeof part.id === 'string';
}

function reasoningItem(part: ReasoningPart & { id: string }): ResponsesReasoningInput {
  return {
    type: 'reasoning',
    id: part.id,
    // The summary (and the text, below) as it came: part by part when it came in several.
    summary: (part.summaryParts ?? (part.summary === undefined ? [] : [part.summary])).map((text) => ({
      type: 'summary_text',
      text,
    })),
    ...(part.encrypted !== undefined ? { encrypted_content: part.encrypted } : {}),
    ...(part.text !== undefined
      ? { content: (part.textParts ?? [part.text]).map((text) => ({ type: 'reasoning_text', text })) }
      : {}),
  };
}

/** A turn's items in the order the API returned them: reasoning, then text, then its calls. */
function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = (message.reasoning ?? []).filter(isOwnReasoning).map(reasoningItem);
  if (message.content !== '') items.push({ role: 'assistant', content: message.content });
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: call.callId, name: call.name, arguments: wireArguments(call) });
  }
  return items;
}

/**
 * Our messages as a Responses API prompt: system messages lifted into `instructions` (joined by
 * a blank line), each assistant turn as its reasoning items (OpenAI's own only, with their
 * encrypted content), its text and its `function_call` items, and tool results as
 * `function_call_output` items. Content of parts (a user message's, a tool result's) is sent as a
 * list of `input_text`, `input_image` and `input_file` (see `responsesContent`).
 */
export function toResponsesPrompt(messages: readonly Message[]): ResponsesPrompt {
  const system: string[] = [];
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        input.push({ role: 'user', content: responsesContent(message.content) });
        break;
      case 'assistant':
        input.push(...assistantItems(message));
        break;
      case 'tool':
        input.push({
          type: 'function_call_output',
          call_id: message.callId,
          output: responsesContent(message.content),
        });
        break;
    }
  }
  return { instructions: system.length === 0 ? undefined : system.join('\n\n'), input };
}
