import { APICallError, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAiSdk } from '../../../src/ai-sdk.js';
import { type Message, StreamEvent } from '../../../src/index.js';
import { drain, drainError } from '../support/drain.js';

const usage = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: undefined },
  outputTokens: { total: 40, text: 10, reasoning: 30 },
};

function model(parts: LanguageModelV4StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'mock.chat',
    modelId: 'mock-1',
    doStream: { stream: convertArrayToReadableStream(parts) },
  });
}

function apiError(statusCode: number, body: string): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'http://127.0.0.1/x',
    requestBodyValues: {},
    statusCode,
    responseBody: body,
  });
}

const finish = (unified: 'stop' | 'tool-calls' | 'length' | 'content-filter'): LanguageModelV4StreamPart => ({
  type: 'finish',
  usage,
  finishReason: { unified, raw: unified },
});

describe('fromAiSdk over the AI SDK mock model', () => {
  it('streams text, reasoning with its metadata, tool-input deltas, calls, usage and the finish reason', async () => {
    const client = fromAiSdk(
      model([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'think ' },
        { type: 'reasoning-delta', id: 'r1', delta: 'hard' },
        { type: 'reasoning-end', id: 'r1', providerMetadata: { mock: { signature: 'sig-1' } } },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Reading ' },
        { type: 'text-delta', id: 't1', delta: 'it.' },
        { type: 'text-end', id: 't1' },
        { type: 'tool-input-start', id: 'call-1', toolName: 'read_file' },
        { type: 'tool-input-delta', id: 'call-1', delta: '{"path":' },
        { type: 'tool-input-delta', id: 'call-1', delta: '"a.txt"}' },
        { type: 'tool-input-end', id: 'call-1' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'read_file', input: '{"path":"a.txt"}' },
        { type: 'tool-call', toolCallId: 'srv-1', toolName: 'web_search', input: '{}', providerExecuted: true },
        finish('tool-calls'),
      ]),
    );
    expect(client).toMatchObject({ model: 'mock-1', provider: 'mock.chat' });
    const events = await drain(await client.chatCompletion([{ role: 'user', content: 'read a.txt' }]));
    expect(events.filter((event) => event.type !== 'tool_call_begin')).toEqual([
      StreamEvent.reasoningDelta('think '),
      StreamEvent.reasoningDelta('hard'),
      StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'mock.chat',
        text: 'think hard',
        signature: '{"mock":{"signature":"sig-1"}}',
      }),
      StreamEvent.textDelta('Reading '),
      StreamEvent.textDelta('it.'),
      StreamEvent.toolCallDelta({ callId: 'call-1', name: 'read_file', argumentsDelta: '{"path":' }),
      StreamEvent.toolCallDelta({ callId: 'call-1', name: 'read_file', argumentsDelta: '"a.txt"}' }),
      StreamEvent.toolCallComplete({ callId: 'call-1', name: 'read_file', arguments: { path: 'a.txt' } }),
      StreamEvent.messageComplete(
        { promptTokens: 120, completionTokens: 40, totalTokens: 160, cachedPromptTokens: 100, reasoningTokens: 30 },
        'tool_calls',
      ),
    ]);
  });

  it('maps each finish reason', async () => {
    for (const [unified, ours] of [
      ['stop', 'stop'],
      ['length', 'length'],
      ['content-filter', 'content_filter'],
    ] as const) {
      const events = await drain(await fromAiSdk(model([finish(unified)])).chatCompletion([]));
      expect(events.at(-1)?.finishReason).toBe(ours);
    }
  });

  it('sends the context as the AI SDK prompt: reasoning with its metadata, calls, results named after their call', async () => {
    const mock = model([finish('stop')]);
    const messages: Message[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'read two files' },
      {
        role: 'assistant',
        content: 'Reading.',
        reasoning: [
          { type: 'reasoning', provider: 'mock.chat', text: 'plan', signature: '{"mock":{"signature":"s"}}' },
        ],
        toolCalls: [
          { callId: 'c1', name: 'read_file', arguments: { path: 'a' } },
          { callId: 'c2', name: 'list_dir', arguments: '{"path":"b"}' },
        ],
      },
      { role: 'tool', callId: 'c1', content: 'A' },
      { role: 'tool', callId: 'c2', content: 'B' },
    ];
    const controller = new AbortController();
    await drain(
      await fromAiSdk(mock, { temperature: 0.2 }).chatCompletion(
        messages,
        [{ name: 'read_file', description: 'reads', parameters: { type: 'object' } }],
        { signal: controller.signal, output: { name: 'final_answer', schema: { type: 'object' } } },
      ),
    );
    const call = mock.doStreamCalls[0];
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'read two files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'plan', providerOptions: { mock: { signature: 's' } } },
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'list_dir', input: { path: 'b' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'A' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'list_dir', output: { type: 'text', value: 'B' } },
        ],
      },
    ]);
    expect(call?.tools).toEqual([
      { type: 'function', name: 'read_file', description: 'reads', inputSchema: { type: 'object' } },
    ]);
    expect(call?.responseFormat).toEqual({ type: 'json', schema: { type: 'object' }, name: 'final_answer' });
    expect(call?.abortSignal).toBe(controller.signal);
    expect(call?.temperature).toBe(0.2);
  });

  it('maps errors to ModelError kinds: a streamed error part, a rejected doStream, a stream that just ends', async () => {
    const streamed = await drainError(
      (await fromAiSdk(
        model([
          { type: 'text-delta', id: 't', delta: 'x' },
          { type: 'error', error: apiError(429, 'slow down') },
        ]),
      ).chatCompletion([])) as AsyncIterable<StreamEvent>,
    );
    expect(streamed).toMatchObject({ name: 'ModelError', reason: 'model_error', kind: 'rate_limited', status: 429 });
    expect(streamed.message).toBe('mock.chat model mock-1: rate limited (HTTP 429): HTTP 429: slow down');
    const cases: [number, string, string][] = [
      [529, '{"type":"overloaded_error"}', 'overloaded'],
      [503, 'unavailable', 'server'],
      [400, 'prompt is too long: 210000 tokens > 200000 maximum', 'context_length'],
      [401, 'bad key', 'authentication'],
      [400, 'bad schema', 'bad_request'],
    ];
    for (const [status, body, kind] of cases) {
      const rejecting = new MockLanguageModelV4({
        doStream: async () => {
          throw apiError(status, body);
        },
      });
      const error = await drainError(fromAiSdk(rejecting).chatCompletion([]) as AsyncIterable<StreamEvent>);
      expect(error).toMatchObject({ kind, status });
    }
    const ended = await drainError(
      (await fromAiSdk(model([{ type: 'text-delta', id: 't', delta: 'x' }])).chatCompletion(
        [],
      )) as AsyncIterable<StreamEvent>,
    );
    expect(ended).toMatchObject({
      kind: 'stream',
      message: 'mock.chat model mock-1: the stream ended before its finish part',
    });
  });

  it('an abort ends the turn as aborted and cancels the provider stream', async () => {
    let cancelled: unknown;
    const hanging = new MockLanguageModelV4({
      doStream: {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'one' });
          },
          cancel(reason) {
            cancelled = reason ?? 'cancelled';
          },
        }),
      },
    });
    const controller = new AbortController();
    const stream = fromAiSdk(hanging).chatCompletion([], undefined, { signal: controller.signal });
    const seen: StreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of stream as AsyncIterable<StreamEvent>) {
          seen.push(event);
          controller.abort(); // the mock ignores the signal and never ends its stream
        }
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(seen).toEqual([StreamEvent.textDelta('one')]);
    expect(error).toMatchObject({ name: 'ModelError', kind: 'aborted' });
    expect(cancelled).toBeDefined();
  });

  it('refuses what is not an AI SDK language model, naming what it got', () => {
    expect(() => fromAiSdk({ specificationVersion: 'v1' } as never)).toThrow('got specification v1');
    expect(() => fromAiSdk(undefined as never)).toThrow('got undefined');
  });
});
