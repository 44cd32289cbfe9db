import type { Message, ReasoningContent } from '../../core/messages.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type {
  AiSdkFunctionTool,
  AiSdkMessage,
  AiSdkProviderMetadata,
  AiSdkReasoningPart,
  AiSdkSpecification,
  AiSdkToolCallPart,
  AiSdkToolResultPart,
} from './ai-sdk-types.js';
import { toolOutput, userPart } from './convert-parts.js';
import { TOOL_CALL_METADATA } from './map-stream.js';

/**
 * A reasoning part as the AI SDK takes it back: its text, and the provider metadata it came with
 * (Anthropic's signature, Gemini's thought signature), kept as JSON in `signature`. Redacted
 * reasoning has no AI SDK form and stays out.
 */
function reasoningPart(part: ReasoningContent): AiSdkReasoningPart | undefined {
  if (part.type !== 'reasoning') return undefined;
  const text = part.text ?? part.summary ?? '';
  if (part.signature === undefined) return { type: 'reasoning', text };
  try {
    return { type: 'reasoning', text, providerOptions: JSON.parse(part.signature) as AiSdkProviderMetadata };
  } catch {
    return { type: 'reasoning', text };
  }
}

/**
 * The context as an AI SDK prompt of specification `spec`: one message per message, the results
 * of a turn's calls in one `tool` message (each named after its call, which the AI SDK's tool
 * results need), images and files as the specification's parts (see `userPart`, `toolOutput`).
 */
export function convertPrompt(messages: readonly Message[], spec: AiSdkSpecification): AiSdkMessage[] {
  const prompt: AiSdkMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? [{ type: 'text', text: message.content }]
              : message.content.map((part) => userPart(part, spec)),
        });
        break;
      case 'assistant': {
        const content: (AiSdkReasoningPart | AiSdkToolCallPart | { type: 'text'; text: string })[] = [];
        const callOptions = new Map<string, AiSdkProviderMetadata>();
        for (const part of message.reasoning ?? []) {
          const converted = reasoningPart(part);
          if (converted === undefined) continue;
          const id = part.type === 'reasoning' ? part.id : undefined;
          const callId = id?.startsWith(TOOL_CALL_METADATA) ? id.slice(TOOL_CALL_METADATA.length) : undefined;
          if (callId === undefined) content.push(converted);
          else if (converted.providerOptions !== undefined) callOptions.set(callId, converted.providerOptions);
        }
        if (message.content !== '') content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          toolNames.set(call.callId, call.name);
          const input = typeof call.arguments === 'string' ? parsedOrText(call.arguments) : call.arguments;
          const providerOptions = callOptions.get(call.callId);
          content.push(
            providerOptions === undefined
              ? { type: 'tool-call', toolCallId: call.callId, toolName: call.name, input }
              : { type: 'tool-call', toolCallId: call.callId, toolName: call.name, input, providerOptions },
          );
        }
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const result: AiSdkToolResultPart = {
          type: 'tool-result',
          toolCallId: message.callId,
          toolName: toolNames.get(message.callId) ?? 'unknown',
          output: toolOutput(message.content, spec),
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(result);
        else prompt.push({ role: 'tool', content: [result] });
        break;
      }
    }
  }
  return prompt;
}

function parsedOrText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Tool definitions as AI SDK function tools. */
export function convertTools(tools: readonly ToolDefinition[]): AiSdkFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  }));
}
