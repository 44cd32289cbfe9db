import type { RequestedOutput } from '../../core/model-client.js';
import type { ToolDefinition } from '../../core/tool-params.js';
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

/** The Messages API's `tool_choice`: any tool, or the one named. */
export type AnthropicToolChoice = { readonly type: 'any' } | { readonly type: 'tool'; readonly name: string };

/**
 * The tools to send, with the forced final tool of a structured answer: the Messages API has no
 * response format, so the answer is a call to a tool whose input schema is the answer's
 * (`output.name`), and every turn must call a tool (`any`), or that one tool when there are no
 * others. The stream maps that call back to the answer's text (map-stream.ts).
 */
export function withAnswerTool(
  tools: AnthropicTool[] | undefined,
  output: RequestedOutput | undefined,
): { tools: AnthropicTool[]; toolChoice?: AnthropicToolChoice } | undefined {
  if (output === undefined) return tools === undefined ? undefined : { tools };
  const answer: AnthropicTool = {
    name: output.name,
    description: 'Give your final answer with this tool, as its input, once you are done; call no other tool with it.',
    input_schema: { ...output.schema, type: 'object' },
  };
  return tools === undefined
    ? { tools: [answer], toolChoice: { type: 'tool', name: output.name } }
    : { tools: [...tools, answer], toolChoice: { type: 'any' } };
}
