import type { ToolDefinition } from '../../tools/tool-params.js';
import type { OpenAITool } from './openai-types.js';

/** Tool definitions as Chat Completions `function` tools; undefined when there are none to send. */
export function toOpenAITools(tools: readonly ToolDefinition[] | undefined): OpenAITool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
