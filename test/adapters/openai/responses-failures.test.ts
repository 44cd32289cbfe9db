import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIClient, type OpenAIClientOptions } from '../../../src/adapters/openai/openai-client.js';
import { drain, drainError, recordingSleep } from '../support/drain.js';
import { errorAnswer, type FakeResponse, type FakeServer, fixture, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];
const ok: FakeResponse = { chunks: [fixture('openai-responses/text.sse')] };

async function serve(answers: FakeResponse[], options: Partial<OpenAIClientOptions> = {}) {
  server = await startFakeServer(answers);
  const recorder = recordingSleep();
  const client = new OpenAIClient({
    model: 'o4-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    api: 'responses',
    ...options,
    retry: { sleep: recorder.sleep, random: () => 0, ...options.retry },
  });
  return { client, waits: recorder.waits, requests: server.requests };
}

describe('OpenAIClient on the Responses API, failures', () => {
  it('honours Retry-After on 429, then succeeds', async () => {
    const { client, waits, requests } = await serve([
      errorAnswer(429, 'Rate limit reached for o4-mini', { 'retry-after': '3' }),
      ok,
    ]);
    const events = await drain(client.chatCompletion(user));
    expect(events.at(-1)?.type).toBe('message_complete');
    expect(waits).toEqual([3000]);
    expect(requests.map((r) => r.url)).toEqual(['/v1/responses', '/v1/responses']);
  });

  it('gives up after the retries, as rate_limited with the server message', async () => {
    const limited = errorAnswer(429, 'Rate limit reached for o4-mini', { 'retry-after-ms': '40' });
    const { client, waits, requests } = await serve([limited], { retry: { maxRetries: 1 } });
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ reason: 'model_error', kind: 'rate_limited', status: 429 });
    expect(error.message).toContain('Rate limit reached for o4-mini');
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([40]);
  });

  it('reports a refused request (400) once, without retrying', async () => {
    const refused = errorAnswer(
      400,
      "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'.",
    );
    const { client, waits, requests } = await serve([refused, ok]);
    const error = await drainError(client.chatCompletion(user));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(error.message).toContain("without its required 'reasoning' item");
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('backs off on 5xx and reports 401 as an authentication error', async () => {
    const { client, waits } = await serve([errorAnswer(503, 'overloaded'), ok]);
    await drain(client.chatCompletion(user));
    expect(waits).toEqual([500]);
    await server?.close();
    const again = await serve([errorAnswer(401, 'Incorrect API key provided')]);
    expect(await drainError(again.client.chatCompletion(user))).toMatchObject({ kind: 'authentication' });
  });
});
