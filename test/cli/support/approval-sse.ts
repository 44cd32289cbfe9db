import type { FakeResponse } from '../../adapters/support/fake-server.js';

function chunk(delta: object, finish: string | null, usage: object | null = null): string {
  const body = {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** An OpenAI stream whose turn asks for the given tool calls. */
export function toolCallsAnswer(...calls: readonly [id: string, name: string, args: object][]): FakeResponse {
  const deltas = calls.map(([id, name, args], index) =>
    chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, null),
  );
  return {
    chunks: [
      chunk({ role: 'assistant', content: null }, null),
      ...deltas,
      chunk({}, 'tool_calls'),
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: USAGE })}\n\n`,
      'data: [DONE]\n\n',
    ],
  };
}

/** An OpenAI stream whose turn answers with text. */
export function textAnswer(text: string): FakeResponse {
  return {
    chunks: [
      chunk({ role: 'assistant', content: text }, null),
      chunk({}, 'stop'),
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: USAGE })}\n\n`,
      'data: [DONE]\n\n',
    ],
  };
}
