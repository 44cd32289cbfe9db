import type { RequestedOutput } from '../../core/model-client.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { OpenAITool } from './openai-types.js';

/** Tool definitions as Chat Completions `function` tools; undefined when there are none to send. */
export function toOpenAITools(tools: readonly ToolDefinition[] | undefined): OpenAITool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * A structured final answer as Chat Completions' native `response_format: json_schema`. Not
 * `strict`: strict mode refuses common schemas (optional fields, open objects), and the agent
 * validates the answer anyway.
 */
export function toOpenAIResponseFormat(output: RequestedOutput) {
  return {
    type: 'json_schema' as const,
    json_schema: { name: output.name, schema: output.schema, strict: false },
  };
}
