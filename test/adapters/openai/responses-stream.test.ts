import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import { StreamEvent } from '../../../src/index.js';
import { drain, drainError } from '../support/drain.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

async function serve(name: string, size = 7) {
  server = await startFakeServer([{ chunks: splitBytes(fixture(`openai-responses/${name}`), size) }]);
  return new OpenAIClient({ model: 'o4-mini', apiKey: 'sk-test', baseURL: `${server.url}/v1`, api: 'responses' });
}

const user = [{ role: 'user' as const, content: 'hi' }];

describe('OpenAIClient on the Responses API, streaming', () => {
  it('streams output_text deltas split at awkward byte boundaries, then completes with stop and usage', async () => {
    for (const size of [2, 64]) {
      const events = await drain((await serve('text.sse', size)).chatCompletion(user));
      expect(events.map((e) => e.type)).toEqual([...Array(4).fill('text_delta'), 'message_complete']);
      const text = events.flatMap((e) =>
        e.type === 'text_delta' ? [(e.textDelta as { content: string }).content] : [],
      );
      expect(text.join('')).toBe('Café au lait costs 3 €; 日本語 ✓');
      expect(events.at(-1)).toEqual(
        StreamEvent.messageComplete(
          { promptTokens: 57, completionTokens: 17, totalTokens: 74, cachedPromptTokens: 0, reasoningTokens: 0 },
          'stop',
        ),
      );
      await server?.close();
    }
  });

  it('streams function-call argument deltas with the call id and name, then each call whole at its output_item.done', async () => {
    const events = await drain((await serve('function-call.sse', 9)).chatCompletion(user));
    const piece = (callId: string, argumentsDelta: string) =>
      StreamEvent.toolCallDelta({ callId, name: 'read_file', argumentsDelta });
    expect(events).toEqual([
      piece('call_Xk4YQ2p6e1bMz0', '{"pa'),
      piece('call_Xk4YQ2p6e1bMz0', 'th": "app'),
      piece('call_Xk4YQ2p6e1bMz0', '.py"}'),
      StreamEvent.toolCallComplete({ callId: 'call_Xk4YQ2p6e1bMz0', name: 'read_file', arguments: { path: 'app.py' } }),
      piece('call_Rf3hB8nT5qLw7c', '{"path"'),
      piece('call_Rf3hB8nT5qLw7c', ': "notes'),
      piece('call_Rf3hB8nT5qLw7c', '.md"}'),
      StreamEvent.toolCallComplete({
        callId: 'call_Rf3hB8nT5qLw7c',
        name: 'read_file',
        arguments: { path: 'notes.md' },
      }),
      StreamEvent.messageComplete(
        { promptTokens: 81, completionTokens: 46, totalTokens: 127, cachedPromptTokens: 0, reasoningTokens: 0 },
        'tool_calls',
      ),
    ]);
  });

  it('streams reasoning summary deltas and completes a reasoning part with its id and encrypted content, before the call', async () => {
    const events = await drain((await serve('reasoning-tool-call.sse', 11)).chatCompletion(user));
    expect(events.map((e) => e.type)).toEqual([
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_complete',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_complete',
      'message_complete',
    ]);
    expect(events.slice(0, 2).map((e) => e.reasoningDelta)).toEqual([
      '**Reading the file**\n\nThe user asks',
      ' what app.py holds; I should read it.',
    ]);
    expect(events[2]).toEqual(
      StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'openai',
        id: 'rs_6820f383d7c08191846711c5df8233bc0ac5ba57aafcbac7',
        encrypted: 'gAAAAABoIPOE_enc1-Zm9vYmFyYmF6cXV4LXJlYXNvbmluZy0x==',
        summary: '**Reading the file**\n\nThe user asks what app.py holds; I should read it.',
      }),
    );
  });

  it('reads cached input tokens and reasoning tokens from the usage details', async () => {
    const events = await drain((await serve('reasoning-tool-call.sse')).chatCompletion(user));
    expect(events.at(-1)).toEqual(
      StreamEvent.messageComplete(
        {
          promptTokens: 1290,
          completionTokens: 160,
          totalTokens: 1450,
          cachedPromptTokens: 1152,
          reasoningTokens: 128,
        },
        'tool_calls',
      ),
    );
  });

  it('joins the parts of a reasoning summary by a blank line, as streamed and in the part, and streams the answer after it', async () => {
    const events = await drain((await serve('two-summaries.sse')).chatCompletion(user));
    expect(events.map((e) => e.type)).toEqual([
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_complete',
      'text_delta',
      'message_complete',
    ]);
    const streamed = events.flatMap((e) => (e.type === 'reasoning_delta' ? [e.reasoningDelta] : [])).join('');
    expect(streamed).toBe("**Responding to a greeting**\n\nI'll greet them back.");
    expect(events[3]?.reasoning).toMatchObject({
      summary: "**Responding to a greeting**\n\nI'll greet them back.",
      summaryParts: ['**Responding to a greeting**', "I'll greet them back."],
      encrypted: 'gAAAAABoBr_Kenc2-dHdvLXN1bW1hcmllcw==',
    });
  });

  it('skips an event type it does not know, with a debug note, and streams on', async () => {
    const saved = process.env.DEBUG;
    process.env.DEBUG = 'agent-harness:openai';
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const events = await drain((await serve('unknown-event.sse')).chatCompletion(user));
      expect(events.map((e) => e.type)).toEqual(['text_delta', 'text_delta', 'message_complete']);
    } finally {
      if (saved === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = saved;
    }
    expect(written).toEqual([
      expect.stringMatching(
        /^agent-harness:openai openai at .*: skipped a stream event of unknown type 'response\.future_widget\.delta'\n$/,
      ),
    ]);
  });

  it('skips event types it does not know inside a reasoning item, each with a debug note, and streams as without them', async () => {
    const sse = fixture('openai-responses/reasoning-tool-call.sse').toString('utf8');
    const plain = await drain((await serve('reasoning-tool-call.sse')).chatCompletion(user));
    await server?.close();
    const future = (type: string) => `event: ${type}\ndata: ${JSON.stringify({ type, output_index: 0 })}\n\n`;
    // A new type right after the reasoning item begins, and one before the reasoning item is done.
    const begun = sse.indexOf('event: response.output_item.added');
    const done = sse.indexOf('event: response.output_item.done');
    expect(0 < begun && begun < done).toBe(true);
    const mixed = `${sse.slice(0, begun)}${future('response.reasoning_trace.added')}${sse.slice(begun, done)}${future('response.reasoning_trace.done')}${sse.slice(done)}`;
    server = await startFakeServer([{ chunks: splitBytes(Buffer.from(mixed), 9) }]);
    const client = new OpenAIClient({
      model: 'o4-mini',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      api: 'responses',
    });
    const saved = process.env.DEBUG;
    process.env.DEBUG = 'agent-harness:openai';
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    let events: typeof plain;
    try {
      events = await drain(client.chatCompletion(user));
    } finally {
      vi.restoreAllMocks();
      if (saved === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = saved;
    }
    expect(events).toEqual(plain);
    expect(events.some((e) => e.type === 'reasoning_complete')).toBe(true);
    expect(written).toEqual([
      expect.stringMatching(/: skipped a stream event of unknown type 'response\.reasoning_trace\.added'\n$/),
      expect.stringMatching(/: skipped a stream event of unknown type 'response\.reasoning_trace\.done'\n$/),
    ]);
  });

  it('ends an incomplete response (max_output_tokens) with finish reason length', async () => {
    const events = await drain((await serve('incomplete.sse')).chatCompletion(user));
    expect(events.at(-1)).toMatchObject({ type: 'message_complete', finishReason: 'length' });
  });

  it('fails on response.failed, with the provider message and code', async () => {
    const error = await drainError((await serve('failed.sse')).chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toContain(
      'the response failed: The server had an error while processing your request. (server_error)',
    );
  });

  it('fails on an error event in the stream, after the text it had streamed', async () => {
    const client = await serve('error-event.sse');
    const seen: string[] = [];
    const error = await drainError(
      (async function* () {
        for await (const event of client.chatCompletion(user)) {
          seen.push(event.type);
          yield event;
        }
      })(),
    );
    expect(seen).toEqual(['text_delta']);
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toContain('error in the stream: Something went wrong (ERR_SOMETHING)');
  });

  it('fails when the stream ends before the response completed', async () => {
    const error = await drainError((await serve('cut.sse')).chatCompletion(user));
    expect(error.message).toContain('the stream ended before the model finished its turn');
  });

  it('refuses a known event of the wrong shape with a message naming the field', async () => {
    server = await startFakeServer([
      { chunks: ['event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":7}\n\n'] },
    ]);
    const client = new OpenAIClient({ model: 'm', apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toMatch(/unexpected event in the stream \(response\.output_text\.delta\.delta: /);
  });
});
