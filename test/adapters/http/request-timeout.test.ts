import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import type { ModelClient, StreamEvent } from '../../../src/index.js';
import { drain, drainError, recordingSleep } from '../support/drain.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];
const silent: FakeResponse = { silent: true };
// Long enough that a loaded machine's server has read each request before the client gives up
// on it (at 100 ms the suite once saw the third request aborted before the server counted it).
const TIMEOUT_MS = 300;

const clients: Record<
  string,
  { make: (url: string, sleep: (ms: number) => Promise<void>) => ModelClient; ok: string }
> = {
  openai: {
    make: (url, sleep) =>
      new OpenAIClient({ model: 'm', apiKey: 'k', baseURL: `${url}/v1`, timeoutMs: TIMEOUT_MS, retry: { sleep } }),
    ok: 'openai/text.sse',
  },
  anthropic: {
    make: (url, sleep) =>
      new AnthropicClient({ model: 'm', apiKey: 'k', baseURL: url, timeoutMs: TIMEOUT_MS, retry: { sleep } }),
    ok: 'anthropic/text.sse',
  },
};

describe.each(Object.keys(clients))('%s: a server that never sends the response headers', (provider) => {
  const { make, ok } = clients[provider] ?? (undefined as never);

  it('is retried as a timeout (bounded: 2 retries), then fails with kind timeout', async () => {
    server = await startFakeServer([silent]);
    const recorder = recordingSleep();
    const error = await drainError(make(server.url, recorder.sleep).chatCompletion(user) as AsyncIterable<StreamEvent>);
    expect(error).toMatchObject({ reason: 'model_error', kind: 'timeout' });
    expect(error.message).toContain(`no response for ${TIMEOUT_MS} ms`);
    expect(server.requests).toHaveLength(3);
    expect(recorder.waits).toHaveLength(2);
  });

  it('succeeds when a retry gets an answer', async () => {
    server = await startFakeServer([silent, { chunks: [fixture(ok)] }]);
    const events = await drain(await make(server.url, recordingSleep().sleep).chatCompletion(user));
    expect(events.at(-1)?.type).toBe('message_complete');
    expect(server.requests).toHaveLength(2);
  });
});
