import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient, type AnthropicClientOptions } from '../../../src/adapters/anthropic/anthropic-client.js';
import type { Message, ToolDefinition } from '../../../src/index.js';
import { drain } from '../support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tool = (name: string): ToolDefinition => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});

const conversation: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What is in app.py?' },
  {
    role: 'assistant',
    content: 'Reading it.',
    toolCalls: [{ callId: 'toolu_1', name: 'read_file', arguments: { path: 'app.py' } }],
    reasoning: [{ type: 'reasoning', provider: 'anthropic', text: 'Read it.', signature: 'sig-1' }],
  },
  { role: 'tool', callId: 'toolu_1', content: 'def add(a, b): ...' },
  { role: 'user', content: 'Answer now.', author: 'harness' },
];

interface Body {
  system?: unknown;
  tools?: Record<string, unknown>[];
  messages: { role: string; content: Record<string, unknown>[] }[];
}

async function body(
  options: Partial<AnthropicClientOptions>,
  messages: Message[] = conversation,
  tools: ToolDefinition[] = [tool('read_file'), tool('write_file')],
): Promise<Body> {
  await server?.close();
  server = await startFakeServer([{ chunks: [fixture('anthropic/text.sse')] }]);
  const client = new AnthropicClient({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    ...options,
  });
  await drain(client.chatCompletion(messages, tools));
  return server.requests[0]?.body as Body;
}

/** Where the request carries breakpoints, as paths. */
function breakpoints(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const here = 'cache_control' in value ? [path] : [];
  const inside = Object.entries(value).flatMap(([key, inner]) =>
    key === 'cache_control' ? [] : breakpoints(inner, `${path}/${key}`),
  );
  return [...here, ...inside].sort();
}

const EPHEMERAL = { type: 'ephemeral' };

describe('AnthropicClient prompt caching', () => {
  it('places breakpoints on the last tool, the system prompt and the last message by default', async () => {
    const sent = await body({ thinking: { budgetTokens: 1024 } });
    expect(breakpoints(sent)).toEqual(['/messages/2/content/1', '/system/0', '/tools/1']);
    expect(sent.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }]);
    expect(sent.tools?.[1]).toMatchObject({ name: 'write_file', cache_control: EPHEMERAL });
    // the last user turn: the tool result, then the harness note, which carries the breakpoint
    expect(sent.messages[2]?.content[1]).toEqual({ type: 'text', text: 'Answer now.', cache_control: EPHEMERAL });
  });

  it('places none with cache: false, leaving the system prompt a plain string', async () => {
    const sent = await body({ cache: false });
    expect(breakpoints(sent)).toEqual([]);
    expect(sent.system).toBe('Be brief.');
  });

  it('moves them as asked: no tools or system breakpoint, more messages, a longer ttl', async () => {
    const sent = await body({ cache: { tools: false, system: false, messages: 3, ttl: '1h' } });
    expect(breakpoints(sent)).toEqual(['/messages/0/content/0', '/messages/1/content/2', '/messages/2/content/1']);
    expect(sent.messages[2]?.content[1]).toMatchObject({ cache_control: { type: 'ephemeral', ttl: '1h' } });
    expect(sent.system).toBe('Be brief.');
  });

  it('never places more than the API’s four, and never on a thinking block', async () => {
    const sent = await body({ cache: { messages: 10 } });
    expect(breakpoints(sent)).toEqual(['/messages/1/content/2', '/messages/2/content/1', '/system/0', '/tools/1']);
    // the assistant turn's breakpoint lands on its last block, the tool use, not on its thinking
    expect(sent.messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: 'Read it.', signature: 'sig-1' });
  });

  it('skips what a request does not have: no tools, no system prompt', async () => {
    const sent = await body({}, [{ role: 'user', content: 'hi' }], []);
    expect(breakpoints(sent)).toEqual(['/messages/0/content/0']);
    expect(sent).not.toHaveProperty('system');
    expect(sent).not.toHaveProperty('tools');
  });

  it('keeps the prefix byte-identical from one request to the next, only the breakpoint on the last message moving', async () => {
    const first = await body({});
    const next = await body({}, [
      ...conversation,
      { role: 'assistant', content: 'It adds.' },
      { role: 'user', content: 'Thanks.' },
    ]);
    expect(JSON.stringify(next.tools)).toBe(JSON.stringify(first.tools));
    expect(JSON.stringify(next.system)).toBe(JSON.stringify(first.system));
    const unmarked = (messages: Body['messages']) =>
      JSON.stringify(messages.slice(0, 3).map((m) => m.content.map(({ cache_control: _, ...block }) => block)));
    expect(unmarked(next.messages)).toBe(unmarked(first.messages));
  });
});
