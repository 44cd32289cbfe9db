import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/adapters/anthropic/anthropic-client.js';
import { OpenAIClient } from '../../../src/adapters/openai/openai-client.js';
import type { ModelClient } from '../../../src/index.js';
import { TERMINAL_CONTROL } from '../../support/terminal.js';
import { drainError, recordingSleep } from '../support/drain.js';
import { type FakeResponse, type FakeServer, startFakeServer } from '../support/fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: 'user' as const, content: 'hi' }];

const LOGIN_PAGE = `<!doctype html>\n<html><head><title>Sign in\u001b]0;pwned\u0007</title></head><body>${'<p>Please sign in to the proxy.</p>'.repeat(20)}</body></html>`;
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
});

const clients: Record<string, (url: string) => ModelClient> = {
  openai: (url) =>
    new OpenAIClient({ model: 'm', apiKey: 'k', baseURL: `${url}/v1`, retry: { sleep: recordingSleep().sleep } }),
  anthropic: (url) =>
    new AnthropicClient({ model: 'm', apiKey: 'k', baseURL: url, retry: { sleep: recordingSleep().sleep } }),
};

async function failure(provider: string, answer: FakeResponse) {
  server = await startFakeServer([answer]);
  const make = clients[provider];
  if (!make) throw new Error(provider);
  const error = await drainError(
    (async function* () {
      yield* await make((server as FakeServer).url).chatCompletion(user);
    })(),
  );
  return { error, requests: server.requests.length };
}

describe.each(['openai', 'anthropic'])('%s: a 200 answer that is not an event stream', (provider) => {
  it('says an HTML page arrived, with a short filtered excerpt, and does not retry', async () => {
    const { error, requests } = await failure(provider, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      chunks: [LOGIN_PAGE],
    });
    expect(error).toMatchObject({ reason: 'model_error', kind: 'stream' });
    expect(error.message).toMatch(
      new RegExp(
        `^${provider} at http://127\\.0\\.0\\.1:\\d+(/v1)?: the server answered 200 with text/html; charset=utf-8 instead of an event stream: <!doctype html> <html><head><title>Sign in⟨U\\+001B⟩\\]0;pwned⟨U\\+0007⟩</title>.*…$`,
      ),
    );
    expect(error.message).not.toMatch(TERMINAL_CONTROL);
    expect(error.message.length).toBeLessThan(400);
    expect(requests).toBe(1);
  });

  it('says a JSON body arrived (a server that ignored stream: true)', async () => {
    const { error } = await failure(provider, {
      headers: { 'content-type': 'application/json' },
      chunks: [COMPLETION],
    });
    expect(error.message).toContain(
      'the server answered 200 with application/json instead of an event stream: {"id":"chatcmpl-1","object":"chat.completion"',
    );
  });
});
