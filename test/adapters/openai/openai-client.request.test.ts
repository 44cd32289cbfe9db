import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import type { Message, ToolDefinition } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const conversation: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What is in app.py?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { callId: 'call_1', name: 'read_file', arguments: { path: 'app.py' } },
      { callId: 'call_2', name: 'read_file', arguments: '{"path": ' },
    ],
  },
  { role: 'tool', callId: 'call_1', content: 'def add(a, b): ...' },
  { role: 'tool', callId: 'call_2', content: 'Error: Invalid parameters: arguments are not valid JSON' },
  { role: 'user', content: 'Answer now.', author: 'harness' },
];

const readFile: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

async function request(tools: ToolDefinition[] | undefined, extra: Record<string, unknown> = {}) {
  server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
  const client = new OpenAIClient({ model: 'qwen2.5', apiKey: 'sk-local', baseURL: `${server.url}/v1`, ...extra });
  await drain(client.chatCompletion(conversation, tools));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return received;
}

describe('OpenAIClient requests', () => {
  it('posts a streaming chat completion with usage requested, to the base URL', async () => {
    const received = await request([readFile]);
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/v1/chat/completions');
    expect(received.headers.authorization).toBe('Bearer sk-local');
    expect(received.body).toMatchObject({ model: 'qwen2.5', stream: true, stream_options: { include_usage: true } });
  });

  it('maps tool calls and tool results onto the Chat Completions shape', async () => {
    const { body } = await request([readFile]);
    expect((body as { messages: unknown }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in app.py?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"app.py"}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path": ' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'def add(a, b): ...' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: Invalid parameters: arguments are not valid JSON' },
      { role: 'user', content: 'Answer now.' },
    ]);
  });

  it('sends tools as function definitions with their JSON Schema', async () => {
    const { body } = await request([readFile]);
    expect((body as { tools: unknown }).tools).toEqual([
      {
        type: 'function',
        function: { name: 'read_file', description: 'Read a file.', parameters: readFile.parameters },
      },
    ]);
  });

  it('omits tools when they are withheld, and usage when turned off', async () => {
    const { body } = await request([], { includeUsage: false, maxTokens: 256, temperature: 0 });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('stream_options');
    expect(body).toMatchObject({ max_completion_tokens: 256, temperature: 0 });
  });

  it('sends extra headers with every request', async () => {
    const { headers } = await request(undefined, {
      headers: { 'x-title': 'agent-harness', 'http-referer': 'https://example.test' },
    });
    expect(headers['x-title']).toBe('agent-harness');
    expect(headers['http-referer']).toBe('https://example.test');
  });
});
