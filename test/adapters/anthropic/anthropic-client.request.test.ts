import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
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
    content: 'Reading both.',
    toolCalls: [
      { callId: 'toolu_1', name: 'read_file', arguments: { path: 'app.py' } },
      { callId: 'toolu_2', name: 'read_file', arguments: '{"path": ' },
    ],
  },
  { role: 'tool', callId: 'toolu_1', content: 'def add(a, b): ...' },
  { role: 'tool', callId: 'toolu_2', content: 'Error: Invalid parameters: arguments are not valid JSON' },
  { role: 'user', content: 'Answer now.', author: 'harness' },
];

const readFile: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

async function request(tools: ToolDefinition[] | undefined, extra: Record<string, unknown> = {}) {
  server = await startFakeServer([{ chunks: [fixture('anthropic/text.sse')] }]);
  const client = new AnthropicClient({
    model: 'claude-haiku-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    ...extra,
  });
  await drain(client.chatCompletion(conversation, tools));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return received;
}

describe('AnthropicClient requests', () => {
  it('posts a streaming message with the key and a max_tokens', async () => {
    const received = await request([readFile]);
    expect(received.url).toBe('/v1/messages');
    // the SDK chooses the header (x-api-key in older versions, a bearer token in newer ones)
    expect(received.headers['x-api-key'] ?? received.headers.authorization).toMatch(/sk-ant-test$/);
    expect(received.headers['anthropic-version']).toBeDefined();
    expect(received.body).toMatchObject({ model: 'claude-haiku-4-5', stream: true, max_tokens: 4096 });
  });

  it('lifts the system prompt and merges consecutive tool results into one user turn', async () => {
    const { body } = await request([readFile], { cache: false });
    expect(body).toMatchObject({ system: 'Be brief.' });
    expect((body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is in app.py?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'app.py' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'def add(a, b): ...' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: 'Error: Invalid parameters: arguments are not valid JSON',
            is_error: true,
          },
          { type: 'text', text: 'Answer now.' },
        ],
      },
    ]);
  });

  it('sends tools with their JSON Schema as input_schema', async () => {
    const { body } = await request([readFile], { cache: false });
    expect((body as { tools: unknown }).tools).toEqual([
      { name: 'read_file', description: 'Read a file.', input_schema: readFile.parameters },
    ]);
  });

  it('omits tools when withheld, and passes max tokens, temperature and extra headers', async () => {
    const received = await request(undefined, { maxTokens: 512, temperature: 0.2, headers: { 'anthropic-beta': 'x' } });
    expect(received.body).not.toHaveProperty('tools');
    expect(received.body).toMatchObject({ max_tokens: 512, temperature: 0.2 });
    expect(received.headers['anthropic-beta']).toBe('x');
  });
});
