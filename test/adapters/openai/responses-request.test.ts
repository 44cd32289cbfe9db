import { afterEach, describe, expect, it } from 'vitest';
import { OPENAI_BASE_URL, OpenAIClient, type OpenAIClientOptions } from '../../../src/adapters/openai/openai-client.js';
import { isOpenAIReasoningModel } from '../../../src/adapters/openai/reasoning-models.js';
import { fitsStrictMode } from '../../../src/adapters/openai/responses-prepare-tools.js';
import type { JsonObject } from '../../../src/core/messages.js';
import type { RequestedOutput } from '../../../src/core/model-client.js';
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
    content: 'Let me look.',
    reasoning: [
      { type: 'reasoning', provider: 'openai', id: 'rs_1', encrypted: 'gAAAA-one', summary: 'Read it first.' },
      { type: 'reasoning', provider: 'anthropic', text: 'Hmm.', signature: 'sig' },
      { type: 'redacted_reasoning', provider: 'anthropic', data: 'opaque' },
      { type: 'reasoning', provider: 'openai', id: 'rs_2', encrypted: 'gAAAA-two' },
    ],
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

async function request(
  options: Partial<OpenAIClientOptions> = {},
  tools: ToolDefinition[] | undefined = [readFile],
  output?: RequestedOutput,
) {
  server = await startFakeServer([{ chunks: [fixture('openai-responses/text.sse')] }]);
  const client = new OpenAIClient({
    model: 'o4-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    api: 'responses',
    ...options,
  });
  await drain(client.chatCompletion(conversation, tools, output ? { output } : {}));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return received as typeof received & { body: Record<string, unknown> };
}

describe('OpenAIClient on the Responses API, requests', () => {
  it('posts a streamed, unstored response to /responses, asking for encrypted reasoning', async () => {
    const received = await request();
    expect(received.url).toBe('/v1/responses');
    expect(received.headers.authorization).toBe('Bearer sk-test');
    expect(received.body).toMatchObject({
      model: 'o4-mini',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      instructions: 'Be brief.',
    });
  });

  it('sends each turn as its own reasoning items, text and function calls, and tool results as function_call_output', async () => {
    const { body } = await request();
    expect(body.input).toEqual([
      { role: 'user', content: 'What is in app.py?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        encrypted_content: 'gAAAA-one',
        summary: [{ type: 'summary_text', text: 'Read it first.' }],
      },
      { type: 'reasoning', id: 'rs_2', encrypted_content: 'gAAAA-two', summary: [] },
      { role: 'assistant', content: 'Let me look.' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"app.py"}' },
      { type: 'function_call', call_id: 'call_2', name: 'read_file', arguments: '{"path": ' },
      { type: 'function_call_output', call_id: 'call_1', output: 'def add(a, b): ...' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: 'Error: Invalid parameters: arguments are not valid JSON',
      },
      { role: 'user', content: 'Answer now.' },
    ]);
    expect(JSON.stringify(body)).not.toContain('anthropic');
    expect(JSON.stringify(body)).not.toContain('opaque');
  });

  it('sends tools as function tools, not strict', async () => {
    const { body } = await request();
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'read_file',
        description: 'Read a file.',
        parameters: readFile.parameters,
        strict: false,
      },
    ]);
  });

  it('sends reasoning effort and summary, the prompt cache key, max_output_tokens and temperature when set', async () => {
    const { body } = await request(
      {
        reasoningEffort: 'low',
        reasoningSummary: 'auto',
        promptCacheKey: 'session-42',
        maxTokens: 512,
        temperature: 0,
      },
      [],
    );
    expect(body).toMatchObject({
      reasoning: { effort: 'low', summary: 'auto' },
      prompt_cache_key: 'session-42',
      max_output_tokens: 512,
      temperature: 0,
    });
    expect(body).not.toHaveProperty('tools');
  });

  it("uses the stored session's id as the prompt cache key unless one is set", async () => {
    server = await startFakeServer([{ chunks: [fixture('openai-responses/text.sse')] }]);
    const client = new OpenAIClient({ model: 'o3', apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' });
    await drain(client.chatCompletion(conversation, [], { sessionId: 'sess-9' }));
    expect(server.requests[0]?.body).toMatchObject({ prompt_cache_key: 'sess-9' });
    const keyed = new OpenAIClient({
      model: 'o3',
      apiKey: 'k',
      baseURL: `${server.url}/v1`,
      api: 'responses',
      promptCacheKey: 'mine',
    });
    await drain(keyed.chatCompletion(conversation, [], { sessionId: 'sess-9' }));
    expect(server.requests[1]?.body).toMatchObject({ prompt_cache_key: 'mine' });
  });

  it('leaves out reasoning, the cache key and encrypted reasoning for a model that does not reason', async () => {
    const { body } = await request({ model: 'gpt-4.1-mini' });
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(body).toMatchObject({ store: false });
  });

  it('asks for encrypted reasoning when told the model reasons, or when reasoning is configured', async () => {
    expect((await request({ model: 'my-deployment', reasoningModel: true })).body.include).toEqual([
      'reasoning.encrypted_content',
    ]);
    await server?.close();
    expect((await request({ model: 'my-deployment', reasoningEffort: 'high' })).body.include).toEqual([
      'reasoning.encrypted_content',
    ]);
    await server?.close();
    expect((await request({ model: 'o3', reasoningModel: false })).body).not.toHaveProperty('include');
  });

  it('asks for structured output through text.format json_schema, strict when the schema allows it', async () => {
    const closed: JsonObject = {
      type: 'object',
      properties: { files: { type: 'array', items: { type: 'string' } }, count: { type: 'number' } },
      required: ['files', 'count'],
      additionalProperties: false,
    };
    const { body } = await request({}, [], { name: 'final_answer', schema: closed });
    expect(body.text).toEqual({ format: { type: 'json_schema', name: 'final_answer', schema: closed, strict: true } });
    await server?.close();
    const open: JsonObject = { type: 'object', properties: { note: { type: 'string' } } };
    const again = await request({}, [], { name: 'final_answer', schema: open });
    expect(again.body.text).toMatchObject({ format: { type: 'json_schema', schema: open, strict: false } });
  });

  it('sends no instructions when there is no system message', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai-responses/text.sse')] }]);
    const client = new OpenAIClient({ model: 'o3', apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' });
    await drain(client.chatCompletion([{ role: 'user', content: 'hi' }]));
    expect(server.requests[0]?.body).not.toHaveProperty('instructions');
  });
});

describe('OpenAIClient api choice', () => {
  it('speaks the Responses API to OpenAI itself and Chat Completions to any other server, unless told', () => {
    expect(new OpenAIClient({ model: 'o3', apiKey: 'k', baseURL: `${OPENAI_BASE_URL}/` }).api).toBe('responses');
    expect(new OpenAIClient({ model: 'q', baseURL: 'http://127.0.0.1:11434/v1' }).api).toBe('chat');
    expect(new OpenAIClient({ model: 'o3', apiKey: 'k', api: 'chat' }).api).toBe('chat');
    expect(new OpenAIClient({ model: 'q', baseURL: 'http://127.0.0.1:8000/v1', api: 'responses' }).api).toBe(
      'responses',
    );
  });

  it('refuses an unknown api', () => {
    expect(() => new OpenAIClient({ model: 'o3', apiKey: 'k', api: 'assistants' as never })).toThrow(
      /api must be 'chat' or 'responses'/,
    );
  });

  it('sends reasoning_effort and prompt_cache_key on Chat Completions too, only when set (not the session id)', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
    const client = new OpenAIClient({
      model: 'o3',
      apiKey: 'k',
      baseURL: `${server.url}/v1`,
      reasoningEffort: 'medium',
      promptCacheKey: 'session-7',
    });
    await drain(client.chatCompletion(conversation));
    const received = server.requests[0];
    expect(received?.url).toBe('/v1/chat/completions');
    expect(received?.body).toMatchObject({ reasoning_effort: 'medium', prompt_cache_key: 'session-7' });
    expect(JSON.stringify(received?.body)).not.toContain('gAAAA');
    const plain = new OpenAIClient({ model: 'qwen2.5', baseURL: `${server.url}/v1` });
    await drain(plain.chatCompletion(conversation, [], { sessionId: 'sess-9' }));
    expect(server.requests[1]?.body).not.toHaveProperty('prompt_cache_key');
    expect(server.requests[1]?.body).not.toHaveProperty('reasoning_effort');
  });
});

describe('isOpenAIReasoningModel', () => {
  it('knows the o-series, gpt-5 (not its chat model) and codex models', () => {
    const reasoning = ['o1', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5-mini', 'gpt-5.1-codex', 'openai/o3'];
    const plain = ['gpt-4.1-mini', 'gpt-4o', 'gpt-5-chat-latest', 'qwen2.5:7b', 'omni-moderation-latest'];
    expect(reasoning.filter((m) => !isOpenAIReasoningModel(m))).toEqual([]);
    expect(plain.filter(isOpenAIReasoningModel)).toEqual([]);
  });
});

describe('fitsStrictMode', () => {
  it('takes closed objects with every property required, nested ones too', () => {
    const item = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(fitsStrictMode({ type: 'array', items: item })).toBe(true);
    expect(fitsStrictMode({ ...item, properties: { a: { type: 'string' }, b: { type: 'number' } } })).toBe(false);
    expect(fitsStrictMode({ ...item, additionalProperties: true })).toBe(false);
    expect(fitsStrictMode({ anyOf: [item, { ...item, required: [] }] })).toBe(false);
  });
});
