import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient, type AnthropicClientOptions } from '../../../src/adapters/anthropic/anthropic-client.js';
import { drain, drainError, recordingSleep } from '../support/drain.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];
const ok: FakeResponse = { chunks: [fixture('anthropic/text.sse')] };

/** An error as the Messages API sends it with a failing status. */
function apiError(status: number, type: string, message: string, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers, chunks: [JSON.stringify({ type: 'error', error: { type, message } })] };
}

async function serve(answers: FakeResponse[], options: Partial<AnthropicClientOptions> = {}) {
  server = await startFakeServer(answers);
  const recorder = recordingSleep();
  const client = new AnthropicClient({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    retry: { sleep: recorder.sleep, random: () => 0 },
    ...options,
  });
  return { client, waits: recorder.waits, requests: server.requests };
}

describe('AnthropicClient failures', () => {
  it('reports 401 as an authentication error without retrying', async () => {
    const { client, requests } = await serve([apiError(401, 'authentication_error', 'invalid x-api-key')]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'authentication', status: 401 });
    expect(error.message).toContain('invalid x-api-key');
    expect(requests).toHaveLength(1);
  });

  it('retries 529 overloaded with backoff, then succeeds', async () => {
    const { client, waits } = await serve([
      apiError(529, 'overloaded_error', 'Overloaded'),
      apiError(529, 'overloaded_error', 'Overloaded'),
      ok,
    ]);
    const events = await drain(client.chatCompletion(user));
    expect(events.at(-1)?.type).toBe('message_complete');
    expect(waits).toEqual([500, 1000]);
  });

  it('honours Retry-After on 429', async () => {
    const { client, waits } = await serve([
      apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', {
        'retry-after': '7',
      }),
      ok,
    ]);
    await drain(client.chatCompletion(user));
    expect(waits).toEqual([7000]);
  });

  it('fails without retrying when the connection is cut mid tool_use', async () => {
    const { client, requests } = await serve([{ chunks: [fixture('anthropic/cut.sse')], cut: true }, ok]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(requests).toHaveLength(1);
  });

  it('fails when the stream ends before message_stop', async () => {
    const { client } = await serve([{ chunks: [fixture('anthropic/cut.sse')] }]);
    const error = await drainError(client.chatCompletion(user));
    expect(error.message).toContain('the stream ended before the model finished its turn');
  });

  it('fails on an error event inside the stream', async () => {
    const { client } = await serve([{ chunks: [fixture('anthropic/error-event.sse')] }]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toContain('Overloaded');
  });

  it('cancels the HTTP request at once when the signal aborts', async () => {
    const { client } = await serve([{ chunks: [fixture('anthropic/cut.sse')], hang: true }]);
    const controller = new AbortController();
    const stream = client.chatCompletion(user, [], { signal: controller.signal });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value?.type).toBe('text_delta');
    controller.abort();
    expect(await drainError(stream)).toMatchObject({ kind: 'aborted' });
    await server?.clientGone(0);
  });
});
