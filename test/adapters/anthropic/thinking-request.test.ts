import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient, type AnthropicClientOptions } from '../../../src/adapters/anthropic/anthropic-client.js';
import type { Message, ToolDefinition } from '../../../src/index.js';
import type { RequestedOutput } from '../../../src/machine.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, type ReceivedRequest, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2p+/==';

const readFile: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const loop: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What is in app.py?' },
  {
    role: 'assistant',
    content: 'Reading it.',
    toolCalls: [{ callId: 'toolu_1', name: 'read_file', arguments: { path: 'app.py' } }],
    reasoning: [
      { type: 'reasoning', provider: 'openai', id: 'rs_1', encrypted: 'gAAAA-not-for-anthropic' },
      { type: 'redacted_reasoning', provider: 'anthropic', data: REDACTED },
      { type: 'reasoning', provider: 'anthropic', text: 'Read app.py first.', signature: 'sig-1' },
      { type: 'reasoning', provider: 'google', text: 'not ours', signature: 'sig-g' },
    ],
  },
  { role: 'tool', callId: 'toolu_1', content: 'def add(a, b): ...' },
];

async function request(
  options: Partial<AnthropicClientOptions>,
  messages: Message[] = loop,
  output?: RequestedOutput,
): Promise<ReceivedRequest> {
  await server?.close();
  server = await startFakeServer([{ chunks: [fixture('anthropic/text.sse')] }]);
  const client = new AnthropicClient({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    ...options,
  });
  await drain(client.chatCompletion(messages, [readFile], output ? { output } : {}));
  const [received] = server.requests;
  if (received === undefined) throw new Error('no request arrived');
  return received;
}

type Body = { messages: { role: string; content: Record<string, unknown>[] }[] } & Record<string, unknown>;

describe('AnthropicClient requests with extended thinking', () => {
  it('sends thinking with a token budget, and raises the default max_tokens by the budget', async () => {
    const { body } = await request({ thinking: { budgetTokens: 2048 } });
    expect(body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 + 2048 });
    const asked = await request({ thinking: { budgetTokens: 2048 }, maxTokens: 16000 });
    expect(asked.body).toMatchObject({ max_tokens: 16000 });
  });

  it('sends adaptive thinking as it is, and no thinking at all by default', async () => {
    expect((await request({ thinking: { type: 'adaptive' } })).body).toMatchObject({
      thinking: { type: 'adaptive' },
      max_tokens: 4096,
    });
    expect((await request({})).body).not.toHaveProperty('thinking');
  });

  it('adds the interleaved-thinking beta to the anthropic-beta header when asked, keeping the betas given', async () => {
    const { headers } = await request({
      thinking: { budgetTokens: 1024, interleaved: true },
      headers: { 'anthropic-beta': 'context-1m-2025-08-07' },
    });
    expect(headers['anthropic-beta']).toBe('context-1m-2025-08-07,interleaved-thinking-2025-05-14');
    const plain = await request({ thinking: { budgetTokens: 1024 } });
    expect(plain.headers['anthropic-beta']).toBeUndefined();
  });

  it('sends an assistant message’s own parts back first, in order, then its text, then its tool use', async () => {
    const { body } = await request({ thinking: { budgetTokens: 1024 }, cache: false });
    const assistant = (body as Body).messages[1];
    expect(assistant?.content).toEqual([
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'thinking', thinking: 'Read app.py first.', signature: 'sig-1' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'app.py' } },
    ]);
  });

  it('never sends parts another provider made', async () => {
    const { body } = await request({ thinking: { budgetTokens: 1024 } });
    const sent = JSON.stringify(body);
    expect(sent).not.toContain('gAAAA-not-for-anthropic');
    expect(sent).not.toContain('sig-g');
    expect(sent).not.toContain('rs_1');
  });

  it('keeps each message’s parts with that message when assistant turns follow one another', async () => {
    const second: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ callId: 'toolu_2', name: 'read_file', arguments: { path: 'notes.md' } }],
      reasoning: [{ type: 'reasoning', provider: 'anthropic', text: 'Now notes.md.', signature: 'sig-2' }],
    };
    const messages: Message[] = [...loop, second, { role: 'tool', callId: 'toolu_2', content: '# Notes' }];
    const { body } = await request({ thinking: { budgetTokens: 1024 }, cache: false }, messages);
    const turns = (body as Body).messages;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(turns[3]?.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(turns[3]?.content[0]).toMatchObject({ signature: 'sig-2' });
  });

  it('only offers the answer tool of a structured answer, since the API takes no forced tool choice with thinking', async () => {
    const output: RequestedOutput = {
      name: 'final_answer',
      schema: { type: 'object', properties: { sum: { type: 'number' } } },
    };
    const thinking = await request({ thinking: { budgetTokens: 1024 } }, loop, output);
    expect(thinking.body).not.toHaveProperty('tool_choice');
    expect((thinking.body as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'final_answer',
    ]);
    expect((await request({}, loop, output)).body).toMatchObject({ tool_choice: { type: 'any' } });
  });
});
