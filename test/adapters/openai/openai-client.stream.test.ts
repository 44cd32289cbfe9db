import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import { StreamEvent } from '../../../src/index.js';
import { drain, drainError } from '../support/drain.js';
import { type FakeServer, fixture, splitBytes, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(name: string, size = 7) {
  server = await startFakeServer([{ chunks: splitBytes(fixture(`openai/${name}`), size) }]);
  return new OpenAIClient({ model: 'gpt-4.1-mini', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
}

const user = [{ role: 'user' as const, content: 'hi' }];

describe('OpenAIClient streaming', () => {
  it('streams text split at awkward byte boundaries, then usage from the last chunk', async () => {
    for (const size of [1, 3, 7, 64]) {
      const events = await drain((await serve('text.sse', size)).chatCompletion(user));
      const text = events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e.textDelta as { content: string }).content);
      expect(text.join('')).toBe('Café au lait costs 3 €; 日本語 ✓');
      expect(events.at(-1)).toEqual(
        StreamEvent.messageComplete({ promptTokens: 57, completionTokens: 17, totalTokens: 74 }, 'stop'),
      );
      await server?.close();
    }
  });

  it('accumulates interleaved parallel tool calls per index, streaming argument deltas in order', async () => {
    const events = await drain((await serve('parallel-tool-calls.sse', 5)).chatCompletion(user));
    const piece = (callId: string, argumentsDelta: string) =>
      StreamEvent.toolCallDelta({ callId, name: 'read_file', argumentsDelta });
    expect(events).toEqual([
      piece('call_A1', '{"pa'),
      piece('call_B2', '{"path"'),
      piece('call_A1', 'th": "app'),
      piece('call_B2', ': "notes'),
      piece('call_A1', '.py"}'),
      piece('call_B2', '.md"}'),
      StreamEvent.toolCallComplete({ callId: 'call_A1', name: 'read_file', arguments: { path: 'app.py' } }),
      StreamEvent.toolCallComplete({ callId: 'call_B2', name: 'read_file', arguments: { path: 'notes.md' } }),
      StreamEvent.messageComplete({ promptTokens: 81, completionTokens: 46, totalTokens: 127 }, 'tool_calls'),
    ]);
  });

  it('completes without usage on servers that never send it (and no [DONE])', async () => {
    const events = await drain((await serve('usage-less.sse')).chatCompletion(user));
    expect(events.at(-1)).toEqual(StreamEvent.messageComplete(undefined, 'stop'));
    expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(2);
  });

  it('reads usage sent in the finishing chunk, summing a missing total', async () => {
    const events = await drain((await serve('usage-in-finish-chunk.sse')).chatCompletion(user));
    expect(events.at(-1)).toEqual(
      StreamEvent.messageComplete({ promptTokens: 12, completionTokens: 2, totalTokens: 14 }, 'stop'),
    );
  });

  it('keeps the cached and reasoning token counts of the usage details', async () => {
    const events = await drain((await serve('usage-details.sse')).chatCompletion(user));
    expect(events.at(-1)).toEqual(
      StreamEvent.messageComplete(
        {
          promptTokens: 2048,
          completionTokens: 300,
          totalTokens: 2348,
          cachedPromptTokens: 1920,
          reasoningTokens: 256,
        },
        'stop',
      ),
    );
  });

  it('passes arguments that are not JSON on as the raw text', async () => {
    const events = (await drain((await serve('invalid-arguments.sse')).chatCompletion(user))).filter(
      (e) => e.type !== 'tool_call_delta',
    );
    expect(events[0]).toEqual(
      StreamEvent.toolCallComplete({ callId: 'call_X', name: 'read_file', arguments: '{"path": "app.py' }),
    );
  });

  it('ignores SSE comments (keep-alives) and reads CRLF line endings', async () => {
    const crlf = Buffer.from(fixture('openai/text.sse').toString('utf8').replaceAll('\n', '\r\n'));
    server = await startFakeServer([{ chunks: [': OPENROUTER PROCESSING\n\n', ...splitBytes(crlf, 9)] }]);
    const client = new OpenAIClient({ model: 'm', apiKey: 'k', baseURL: `${server.url}/v1` });
    const events = await drain(client.chatCompletion(user));
    expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(6);
    expect(events.at(-1)?.type).toBe('message_complete');
  });

  it('refuses a chunk of the wrong shape with a message naming the field', async () => {
    server = await startFakeServer([{ chunks: ['data: {"choices":{"index":0}}\n\n'] }]);
    const client = new OpenAIClient({ model: 'm', apiKey: 'k', baseURL: `${server.url}/v1` });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toMatch(/unexpected chunk in the stream \(choices: /);
  });

  it('reads whole calls sent in one chunk, whatever the finish reason says (Ollama)', async () => {
    const events = await drain((await serve('whole-tool-calls.sse', 13)).chatCompletion(user));
    expect(events.filter((e) => e.type === 'tool_call_complete').map((e) => e.toolCall)).toEqual([
      { callId: 'call_q1', name: 'read_file', arguments: { path: 'app.py' } },
      { callId: 'call_q2', name: 'read_file', arguments: { path: 'notes.md' } },
    ]);
    expect(events.at(-1)).toEqual(StreamEvent.messageComplete(undefined, 'stop'));
  });
});
