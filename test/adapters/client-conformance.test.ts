/**
 * One suite, run for every model client: the built-in ones (scripted, OpenAI chat, OpenAI
 * responses, Anthropic) and fromAiSdk over two real AI SDK provider packages, each against a
 * loopback server speaking its wire format. What a client must do for the agent: stream text
 * that adds up to the answer, end with message_complete (finish reason, usage), deliver tool
 * calls with parsed arguments, take images in a task and in a tool result (sending their bytes),
 * fail a refused request with a ModelError of the status's kind (so a fallback chain can switch),
 * and stop when its signal aborts.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient, ModelError, OpenAIClient } from '../../src/adapters/index.js';
import { fromAiSdk } from '../../src/ai-sdk.js';
import { textOf } from '../../src/core/index.js';
import { type ModelClient, ScriptedClient, StreamEvent } from '../../src/index.js';
import { drain } from './support/drain.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from './support/fake-server.js';
import { PNG, screenshot } from './support/parts.js';

const NO_RETRY = { maxRetries: 0 };

/** A client under test, given the server's answer to its one request. */
interface Subject {
  readonly name: string;
  /** The client, talking to a loopback server that gives `answer` (none for the scripted client). */
  client(answer: 'text' | 'tool' | 'rate_limited' | 'hang'): Promise<ModelClient>;
}

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(answer: FakeResponse): Promise<FakeServer> {
  const server = await startFakeServer([answer]);
  servers.push(server);
  return server;
}

const geminiChunks = (...chunks: object[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
const GEMINI: Record<'text' | 'tool', string[]> = {
  text: geminiChunks(
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Hello ' }] } }] },
    {
      candidates: [{ content: { role: 'model', parts: [{ text: 'there.' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
    },
  ),
  tool: geminiChunks({
    candidates: [
      {
        content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: 'a.txt' } } }] },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
  }),
};

/** The answer of a wire-format server: its fixture for text and a tool call, a 429, or a stream that never ends. */
function wire(fixtures: { text: Buffer | string[]; tool: Buffer | string[] }, errorBody: string) {
  return (answer: 'text' | 'tool' | 'rate_limited' | 'hang'): FakeResponse => {
    if (answer === 'rate_limited') return { status: 429, chunks: [errorBody] };
    if (answer === 'hang') {
      const first = fixtures.text;
      return {
        chunks: Array.isArray(first) ? first.slice(0, 1) : [first.subarray(0, first.indexOf('\n\n') + 2)],
        hang: true,
      };
    }
    const chosen = fixtures[answer];
    return { chunks: Array.isArray(chosen) ? chosen : [chosen] };
  };
}

const openaiWire = wire(
  { text: fixture('openai/text.sse'), tool: fixture('openai/parallel-tool-calls.sse') },
  '{"error":{"message":"Rate limit reached","type":"requests"}}',
);

const SUBJECTS: Subject[] = [
  {
    name: 'ScriptedClient',
    client: async (answer) =>
      new ScriptedClient([
        answer === 'rate_limited'
          ? () => {
              throw new ModelError('rate_limited', 'scripted: rate limited', { status: 429 });
            }
          : answer === 'hang'
            ? () =>
                (async function* () {
                  // A script that never ends: it checks its signal between events.
                  for (;;) {
                    yield StreamEvent.textDelta('Hello');
                    await new Promise((resolve) => setTimeout(resolve, 20));
                  }
                })()
            : answer === 'tool'
              ? [
                  StreamEvent.toolCallComplete({ callId: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }),
                  StreamEvent.messageComplete({ promptTokens: 5, completionTokens: 2, totalTokens: 7 }, 'tool_calls'),
                ]
              : [
                  StreamEvent.textDelta('Hello '),
                  StreamEvent.textDelta('there.'),
                  StreamEvent.messageComplete({ promptTokens: 5, completionTokens: 2, totalTokens: 7 }, 'stop'),
                ],
      ]),
  },
  {
    name: 'OpenAIClient (chat)',
    client: async (answer) => {
      const server = await serve(openaiWire(answer));
      return new OpenAIClient({
        model: 'gpt-4.1-mini',
        apiKey: 'sk-test',
        baseURL: `${server.url}/v1`,
        retry: NO_RETRY,
      });
    },
  },
  {
    name: 'OpenAIClient (responses)',
    client: async (answer) => {
      const server = await serve(
        wire(
          { text: fixture('openai-responses/text.sse'), tool: fixture('openai-responses/function-call.sse') },
          '{"error":{"message":"Rate limit reached"}}',
        )(answer),
      );
      return new OpenAIClient({
        model: 'o4-mini',
        apiKey: 'sk-test',
        baseURL: `${server.url}/v1`,
        api: 'responses',
        retry: NO_RETRY,
      });
    },
  },
  {
    name: 'AnthropicClient',
    client: async (answer) => {
      const server = await serve(
        wire(
          { text: fixture('anthropic/text.sse'), tool: fixture('anthropic/tool-use.sse') },
          '{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}',
        )(answer),
      );
      return new AnthropicClient({
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-ant-test',
        baseURL: server.url,
        retry: NO_RETRY,
      });
    },
  },
  {
    name: 'fromAiSdk (@ai-sdk/openai-compatible)',
    client: async (answer) => {
      const server = await serve(openaiWire(answer));
      const provider = createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1`, includeUsage: true });
      return fromAiSdk(provider.chatModel('gpt-4.1-mini'));
    },
  },
  {
    name: 'fromAiSdk (@ai-sdk/google)',
    client: async (answer) => {
      const server = await serve(wire(GEMINI, '{"error":{"code":429,"message":"Resource exhausted"}}')(answer));
      return fromAiSdk(createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'k' })('gemini-2.5-flash'));
    },
  },
];

const ASK: [Parameters<ModelClient['chatCompletion']>[0], Parameters<ModelClient['chatCompletion']>[1]] = [
  [{ role: 'user', content: 'read a.txt' }],
  [
    {
      name: 'read_file',
      description: 'reads a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
];

/** A task with an image, a call, and its result with an image. */
const WITH_IMAGES: Parameters<ModelClient['chatCompletion']>[0] = [
  { role: 'user', content: [{ type: 'text', text: 'read a.txt; this is the screen:' }, ...screenshot.slice(1)] },
  { role: 'assistant', content: '', toolCalls: [{ callId: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
  { role: 'tool', callId: 'c1', content: screenshot },
];

/** What the client sent: the body its server received, or the messages a scripted client recorded. */
function sentBy(client: ModelClient): string {
  const body = servers.at(-1)?.requests[0]?.body;
  if (body !== undefined) return JSON.stringify(body);
  return JSON.stringify(client instanceof ScriptedClient ? client.requests[0]?.messages : undefined);
}

describe.each(SUBJECTS)('model client conformance: $name', (subject) => {
  it('takes images in a task and in a tool result, and sends the bytes of both', async () => {
    const client = await subject.client('text');
    const events = await drain(await client.chatCompletion(WITH_IMAGES, ASK[1]));
    expect(events.at(-1)).toMatchObject({ type: 'message_complete', finishReason: 'stop' });
    expect(sentBy(client).split(PNG).length - 1).toBe(2);
  });

  it('streams text that adds up to the answer, then message_complete with stop and usage', async () => {
    const events = await drain(await (await subject.client('text')).chatCompletion(...ASK));
    const text = events.filter((event) => event.type === 'text_delta').map((event) => textOf(event.textDelta));
    expect(text.length).toBeGreaterThan(0);
    expect(text.join('').trim()).not.toBe('');
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'message_complete', finishReason: 'stop' });
    expect(last?.usage?.totalTokens).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === 'message_complete')).toHaveLength(1);
  });

  it('delivers tool calls with an id, the tool name and parsed arguments', async () => {
    const events = await drain(await (await subject.client('tool')).chatCompletion(...ASK));
    const calls = events.filter((event) => event.type === 'tool_call_complete').map((event) => event.toolCall);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call?.callId).toMatch(/.+/);
      expect(call?.name).toBe('read_file');
      expect(typeof call?.arguments).toBe('object');
    }
    expect(events.at(-1)).toMatchObject({ type: 'message_complete', finishReason: 'tool_calls' });
  });

  it('fails a 429 with a ModelError of kind rate_limited, before any event', async () => {
    const seen: StreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of await (await subject.client('rate_limited')).chatCompletion(...ASK)) seen.push(event);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ reason: 'model_error', kind: 'rate_limited' });
    expect(seen).toEqual([]);
  });

  it('stops a hanging stream when its signal aborts', async () => {
    const controller = new AbortController();
    const stream = await (await subject.client('hang')).chatCompletion(...ASK, { signal: controller.signal });
    // The server (or script) sent the first piece and then nothing: only the abort can end it.
    const timer = setTimeout(() => controller.abort(), 200);
    try {
      await expect(drain(stream)).rejects.toThrow();
    } finally {
      clearTimeout(timer);
    }
    expect(controller.signal.aborted).toBe(true);
  });
});
