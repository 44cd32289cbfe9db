import { describe, expect, it } from 'vitest';
import { withAnswerTool } from '../../src/adapters/anthropic/prepare-tools.js';
import { toOpenAIResponseFormat } from '../../src/adapters/openai/prepare-tools.js';

const output = { name: 'final_answer', schema: { type: 'object', properties: { n: { type: 'number' } } } };
const tool = { name: 'read_file', description: 'Read.', input_schema: { type: 'object' as const } };

describe('structured output request shapes', () => {
  it('Anthropic: forces the answer tool when there are no other tools, any tool when there are', () => {
    expect(withAnswerTool(undefined, output)).toMatchObject({
      tools: [{ name: 'final_answer', input_schema: output.schema }],
      toolChoice: { type: 'tool', name: 'final_answer' },
    });
    expect(withAnswerTool([tool], output)?.toolChoice).toEqual({ type: 'any' });
    expect(withAnswerTool([tool], undefined)).toEqual({ tools: [tool] });
    expect(withAnswerTool(undefined, undefined)).toBeUndefined();
  });

  it('OpenAI: response_format json_schema, not strict', () => {
    expect(toOpenAIResponseFormat(output)).toEqual({
      type: 'json_schema',
      json_schema: { name: 'final_answer', schema: output.schema, strict: false },
    });
  });
});
