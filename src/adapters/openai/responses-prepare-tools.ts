import type { RequestedOutput } from '../../core/model-client.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { ResponsesTool } from './responses-types.js';

/**
 * Tool definitions as Responses `function` tools; undefined when there are none to send. Not
 * `strict` (which this API turns on when it is left out): strict mode refuses optional
 * parameters, and the registry validates arguments anyway.
 */
export function toResponsesTools(tools: readonly ToolDefinition[] | undefined): ResponsesTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether strict mode takes `schema` as it is: every object closed (`additionalProperties:
 * false`) with all its properties required. Schemas under other keys are checked too.
 */
export function fitsStrictMode(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(fitsStrictMode);
  if (!isRecord(schema)) return true;
  if (isRecord(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const closed = schema.additionalProperties === false;
    if (!closed || Object.keys(schema.properties).some((key) => !required.includes(key))) return false;
  }
  return Object.values(schema).every(fitsStrictMode);
}

/**
 * A structured final answer as `text.format` `json_schema`: strict when the schema fits strict
 * mode (the answer is then guaranteed to match), else not (strict mode would refuse the
 * request; the agent validates the answer either way).
 */
export function toResponsesTextFormat(output: RequestedOutput) {
  return {
    format: {
      type: 'json_schema' as const,
      name: output.name,
      schema: output.schema,
      strict: fitsStrictMode(output.schema),
    },
  };
}
