import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnthropicClient } from '../../src/adapters/anthropic/anthropic-client.js';
import { OpenAIClient } from '../../src/adapters/openai/openai-client.js';
import { main } from '../../src/cli/main.js';
import { redactUrl } from '../../src/core/redact-url.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** Every byte under `dir`, to search for a leaked secret. */
function everythingWritten(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('credentials in the base URL', () => {
  it('refuses --base-url with a user and password (exit 2), shows it redacted, writes nothing, sends nothing', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
    const cwd = cliWorkspace();
    const url = `${server.url.replace('http://', 'http://alice:s3cret@')}/v1`;
    const out = captured();
    const err = captured();
    const code = await main(
      ['run', 'hi', '--base-url', url, '--cwd', cwd, '--journal', join(cwd, 'run.jsonl')],
      out,
      err,
    );
    expect(code).toBe(2);
    expect(out.text()).toBe('');
    expect(err.text()).toMatch(
      /^agent-harness run: --base-url must not carry a user name or password \(got 'http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1'\): put the key in OPENAI_API_KEY\n$/,
    );
    expect(`${out.text()}${err.text()}${everythingWritten(cwd)}`).not.toMatch(/s3cret|alice/);
    expect(readdirSync(cwd).sort()).toEqual(['app.py', 'notes.md']);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses OPENAI_BASE_URL with credentials, naming the variable, and an unparseable one without echoing them', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'https://bob:hunter2@proxy.example/v1');
    const err = captured();
    expect(await main(['run', 'hi', '--cwd', cliWorkspace()], captured(), err)).toBe(2);
    expect(err.text()).toContain(
      "OPENAI_BASE_URL must not carry a user name or password (got 'https://***@proxy.example/v1')",
    );
    expect(err.text()).not.toMatch(/hunter2|bob/);
    const bad = captured();
    expect(await main(['run', 'hi', '--base-url', 'bob:hunter2@localhost:8080'], captured(), bad)).toBe(2);
    expect(bad.text()).toContain("--base-url must be an http(s) URL, got '***@localhost:8080'");
  });

  it('is refused by the library clients too (invalid_config), without the password in the message', () => {
    for (const make of [
      () => new OpenAIClient({ model: 'm', baseURL: 'http://u:pw1234@h.example/v1' }),
      () => new AnthropicClient({ model: 'm', baseURL: 'http://u:pw1234@h.example' }),
    ]) {
      expect(make).toThrow(expect.objectContaining({ reason: 'invalid_config' }));
      expect(make).toThrow(/http:\/\/\*\*\*@h\.example/);
      expect(make).not.toThrow(/pw1234/);
    }
  });
});

describe('redactUrl', () => {
  it('hides the user and password of a URL, or of text that only looks like one', () => {
    expect(redactUrl('http://u:p@host:8/v1?x=1')).toBe('http://***@host:8/v1?x=1');
    expect(redactUrl('https://token@host/')).toBe('https://***@host/');
    expect(redactUrl('http://host/v1')).toBe('http://host/v1');
    expect(redactUrl('u:p@host:8080')).toBe('***@host:8080');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
