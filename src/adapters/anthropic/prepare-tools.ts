import type { ToolDefinition } from '../../tools/tool-params.js';
import type { AnthropicTool } from './anthropic-types.js';

/** Tool definitions as Messages API tools (the schema's root is an object); undefined when there are none. */
export function toAnthropicTools(tools: readonly ToolDefinition[] | undefined): AnthropicTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' },
  }));
}
