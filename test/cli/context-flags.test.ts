import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
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

async function run(args: string[]) {
  server = await startFakeServer([
    { chunks: [fixture('openai/parallel-tool-calls.sse')] },
    { chunks: [fixture('openai/text.sse')] },
  ]);
  const out = captured();
  const err = captured();
  const code = await main(['run', ...args, '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()], out, err);
  return { code, out: out.text(), err: err.text() };
}

describe('agent-harness run --context-tokens', () => {
  it('passes the limit to the run: a limit below the first request ends it with context_overflow, sending nothing', async () => {
    const { code, out } = await run(['What is here?', '--context-tokens', '10', '--json']);
    expect(code).toBe(1);
    const end = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { reason?: string; message?: string } })
      .find((event) => event.type === 'agent_error');
    expect(end?.data.reason).toBe('context_overflow');
    expect(end?.data.message).toMatch(/above context\.maxTokens 10/);
    // The task and the tool definitions alone are over 10 tokens: no request is made (docs/context.md).
    expect(server?.requests).toHaveLength(0);
  });

  it('runs as before under a limit the run never reaches', async () => {
    const { code, out } = await run(['What is here?', '--context-tokens', '100000', '--context-strategy', 'summarise']);
    expect(code).toBe(0);
    expect(out).toMatch(/done: final answer · 2 turns/);
  });

  it.each([
    [['--context-tokens', '0'], /--context-tokens must be a positive whole number/],
    [['--context-tokens', '-5'], /--context-tokens must be a positive whole number/],
    [
      ['--context-tokens', '100', '--context-strategy', 'drop'],
      /--context-strategy must be one of elide, summarise, got 'drop'/,
    ],
    [['--context-strategy', 'elide'], /--context-strategy needs --context-tokens N/],
  ])('refuses %j with a usage error', async (flags, message) => {
    const { code, err } = await run(['task', ...flags]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
