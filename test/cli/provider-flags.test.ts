import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aiSdkClients } from '../../src/cli/ai-sdk-provider.js';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli/main.js';
import { parseRunOptions } from '../../src/cli/run-options.js';
import { readJournalFile } from '../../src/journal.js';
import { recordingSleep } from '../adapters/support/drain.js';
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

describe('run --fallback', () => {
  it('switches to the next model of the provider when the first is rate limited, and journals the switch', async () => {
    server = await startFakeServer((request) =>
      (request.body as { model: string }).model === 'gpt-a'
        ? { status: 429, chunks: ['{"error":{"message":"Rate limit reached"}}'] }
        : { chunks: [fixture('openai/text.sse')] },
    );
    const cwd = cliWorkspace();
    const file = join(cwd, 'run.jsonl');
    const out = captured();
    const err = captured();
    const recorder = recordingSleep();
    const command = createRunCommand({ retry: { sleep: recorder.sleep, random: () => 0 }, handleSigint: false });
    const args = ['hello', '--model', 'gpt-a', '--fallback', 'gpt-b, gpt-c', '--base-url', `${server.url}/v1`];
    const code = await command([...args, '--cwd', cwd, '--journal', file], out, undefined, err);
    expect(code).toBe(0);
    const models = server.requests.map((request) => (request.body as { model: string }).model);
    expect(models.at(-1)).toBe('gpt-b');
    expect(models).not.toContain('gpt-c');
    const journal = await readJournalFile(file);
    expect(journal.find((entry) => entry.type === 'model_switch')).toMatchObject({
      from: 'gpt-a',
      to: 'gpt-b',
      reason: 'rate_limit',
    });
    expect(journal.find((entry) => entry.type === 'usage')).toMatchObject({ model: 'gpt-b' });
  });

  it('refuses an empty model name in the list', () => {
    expect(() => parseRunOptions(['task', '--fallback', 'gpt-b,,gpt-c'])).toThrow(
      "--fallback takes model names separated by commas, got 'gpt-b,,gpt-c'",
    );
  });
});

describe('run --provider ai-sdk:<package>/<model>', () => {
  it('reads the package and the model, a scoped package included', () => {
    expect(parseRunOptions(['task', '--provider', 'ai-sdk:@ai-sdk/google/gemini-2.5-flash'])).toMatchObject({
      provider: 'ai-sdk:@ai-sdk/google',
      model: 'gemini-2.5-flash',
    });
    expect(parseRunOptions(['task', '--provider', 'ai-sdk:some-provider/org/model-1'])).toMatchObject({
      provider: 'ai-sdk:some-provider',
      model: 'org/model-1',
    });
  });

  it('refuses a spec without a model, a second --model and a --base-url, saying why', () => {
    expect(() => parseRunOptions(['task', '--provider', 'ai-sdk:@ai-sdk/google'])).toThrow(
      '--provider ai-sdk:@ai-sdk/google needs a model',
    );
    expect(() => parseRunOptions(['task', '--provider', 'ai-sdk:@ai-sdk/google/g', '--model', 'x'])).toThrow(
      'names the model already',
    );
    expect(() =>
      parseRunOptions(['task', '--provider', 'ai-sdk:@ai-sdk/google/g', '--base-url', 'http://127.0.0.1:1']),
    ).toThrow('--base-url does not apply to ai-sdk:@ai-sdk/google');
  });

  it('loads an installed provider package and wraps its models', async () => {
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'test-key');
    const clients = await aiSdkClients('ai-sdk:@ai-sdk/google', ['gemini-2.5-flash', 'gemini-2.5-pro'], cliWorkspace());
    expect(clients.map((client) => [client.provider, client.model])).toEqual([
      ['google.generative-ai', 'gemini-2.5-flash'],
      ['google.generative-ai', 'gemini-2.5-pro'],
    ]);
  });

  it('a missing package is a usage error naming it and the install command (exit 2)', async () => {
    const out = captured();
    const err = captured();
    const args = ['run', 'task', '--provider', 'ai-sdk:@ai-sdk/not-installed-here/m1', '--cwd', cliWorkspace()];
    const code = await main(args, out, err);
    expect(code).toBe(2);
    expect(err.text()).toContain("the package '@ai-sdk/not-installed-here' is not installed (looked in ");
    expect(err.text()).toContain('run: npm i @ai-sdk/not-installed-here');
  });

  it('a package with no ready provider instance says to use fromAiSdk in code', async () => {
    await expect(aiSdkClients('ai-sdk:@ai-sdk/openai-compatible', ['m'], cliWorkspace())).rejects.toThrow(
      'exports no ready provider instance (it needs settings); call fromAiSdk(create…({ … })(model))',
    );
  });
});
