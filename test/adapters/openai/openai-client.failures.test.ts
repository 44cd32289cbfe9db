import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/adapters/http/model-error.js';
import { OpenAIClient, type OpenAIClientOptions } from '../../../src/adapters/openai/openai-client.js';
import { drain, drainError, recordingSleep } from '../support/drain.js';
import { errorAnswer, type FakeResponse, type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];
const ok: FakeResponse = { chunks: [fixture('openai/text.sse')] };

async function serve(answers: FakeResponse[], options: Partial<OpenAIClientOptions> = {}) {
  server = await startFakeServer(answers);
  const recorder = recordingSleep();
  const client = new OpenAIClient({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    retry: { sleep: recorder.sleep, random: () => 0 },
    ...options,
  });
  return { client, waits: recorder.waits, requests: server.requests };
}

describe('OpenAIClient failures', () => {
  it.each([401, 403])('reports %i as an authentication error without retrying', async (status) => {
    const { client, requests } = await serve([errorAnswer(status, 'Incorrect API key provided: sk-test.')]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ reason: 'model_error', kind: 'authentication', status });
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('Incorrect API key provided');
    expect(requests).toHaveLength(1);
  });

  it('honours Retry-After on 429, then succeeds', async () => {
    const { client, waits, requests } = await serve([
      errorAnswer(429, 'Rate limit reached', { 'retry-after': '2' }),
      ok,
    ]);
    const events = await drain(client.chatCompletion(user));
    expect(events.at(-1)?.type).toBe('message_complete');
    expect(waits).toEqual([2000]);
    expect(requests).toHaveLength(2);
  });

  it('honours retry-after-ms before Retry-After', async () => {
    const headers = { 'retry-after-ms': '150', 'retry-after': '9' };
    const { client, waits } = await serve([errorAnswer(429, 'slow down', headers), ok]);
    await drain(client.chatCompletion(user));
    expect(waits).toEqual([150]);
  });

  it('backs off exponentially on 5xx, with jitter from the injected source', async () => {
    const { client, waits } = await serve([errorAnswer(503, 'overloaded'), errorAnswer(500, 'oops'), ok], {
      retry: { sleep: recordingSleep().sleep, random: () => 0.5 },
    });
    await drain(client.chatCompletion(user));
    const recorder = recordingSleep();
    const again = await serve([errorAnswer(502, 'bad gateway'), errorAnswer(500, 'oops'), ok], {
      retry: { sleep: recorder.sleep, random: () => 0 },
    });
    await drain(again.client.chatCompletion(user));
    expect(recorder.waits).toEqual([500, 1000]);
    expect(waits).toEqual([]);
  });

  it('gives up after the bounded retries with the last status', async () => {
    const { client, waits, requests } = await serve([errorAnswer(500, 'The server had an error')]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(error.message).toMatch(/^openai at http:\/\/127\.0\.0\.1:\d+\/v1: server error \(HTTP 500\)/);
    expect(requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('fails at once when Retry-After asks for longer than it waits', async () => {
    const { client, requests } = await serve([errorAnswer(429, 'quota', { 'retry-after': '3600' }), ok]);
    const error = await drainError(client.chatCompletion(user));
    expect(error.message).toContain('retry after 3600 s');
    expect(requests).toHaveLength(1);
  });

  it('fails without retrying when the connection is cut mid-stream', async () => {
    const { client, requests } = await serve([{ chunks: [fixture('openai/cut.sse')], cut: true }, ok]);
    const events: string[] = [];
    const error = await drainError(
      (async function* () {
        for await (const event of client.chatCompletion(user)) {
          events.push(event.type);
          yield event;
        }
      })(),
    );
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(events).toEqual(['text_delta', 'tool_call_delta']);
    expect(requests).toHaveLength(1);
  });

  it('fails when the server reports an error inside the stream', async () => {
    const { client } = await serve([{ chunks: [fixture('openai/error-event.sse')] }]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toContain('The server had an error while processing your request.');
  });

  it('fails when the stream ends cleanly before a finish reason', async () => {
    const { client } = await serve([{ chunks: [fixture('openai/cut.sse')] }]);
    const error = await drainError(client.chatCompletion(user));
    expect(error.message).toContain('the stream ended before the model finished its turn');
  });

  it('cancels the HTTP request at once when the signal aborts', async () => {
    const { client } = await serve([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
    const controller = new AbortController();
    const stream = client.chatCompletion(user, [], { signal: controller.signal });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value?.type).toBe('text_delta');
    controller.abort('user pressed ctrl-c');
    const error = await drainError(stream);
    expect(error).toMatchObject({ kind: 'aborted' });
    await server?.clientGone(0);
  });

  it('stops waiting between retries when the signal aborts', async () => {
    const { client, requests } = await serve([errorAnswer(503, 'busy', { 'retry-after': '30' }), ok], {
      retry: {},
    });
    const controller = new AbortController();
    const pending = drainError(client.chatCompletion(user, [], { signal: controller.signal }));
    while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'aborted' });
    expect(requests).toHaveLength(1);
  });

  it('times out a stream that stalls', async () => {
    const { client } = await serve([{ chunks: [fixture('openai/cut.sse')], hang: true }], {
      timeoutMs: 150,
      retry: { maxRetries: 0 },
    });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(error.message).toContain('no response for 150 ms');
  });

  it('reports an unreachable server in one line, without retrying', async () => {
    server = await startFakeServer([ok]);
    const url = server.url;
    await server.close();
    server = undefined;
    const recorder = recordingSleep();
    const client = new OpenAIClient({ model: 'm', baseURL: url, retry: { sleep: recorder.sleep } });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ kind: 'unreachable' });
    expect(error.message).toBe(`openai at ${url}: cannot connect (ECONNREFUSED)`);
    expect(recorder.waits).toEqual([]);
  });

  it("says so, without retrying, when fetch refuses the port itself (port 1 is on the Fetch standard's blocklist)", async () => {
    const recorder = recordingSleep();
    const url = 'http://127.0.0.1:1/v1';
    const client = new OpenAIClient({ model: 'm', baseURL: url, retry: { sleep: recorder.sleep } });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ kind: 'unreachable' });
    expect(error.message).toContain('fetch refuses this port');
    expect(recorder.waits).toEqual([]);
  });

  it('refuses to start without a key for api.openai.com', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => new OpenAIClient({ model: 'gpt-4.1', baseURL: 'https://api.openai.com/v1' })).toThrow(
        /OPENAI_API_KEY/,
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
