import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
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

/** Two turns (tool calls, then an answer) from a server that reports no usage. */
const usageLess: FakeResponse[] = [
  { chunks: [fixture('openai/whole-tool-calls.sse')] },
  { chunks: [fixture('openai/usage-less.sse')] },
];

async function run(args: string[], answers = usageLess) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const code = await main(['run', 'hi', ...args, '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()], out, err);
  return { code, out: out.text(), err: err.text() };
}

const WARNING =
  'warning: the server reported no token usage for turn 1, so --max-cost cannot stop this run (its cost counts as 0); --max-turns and --timeout still apply\n';

describe('a cost budget with a server that reports no usage', () => {
  it('warns once on stderr, at the first usage-less turn', async () => {
    const { code, err } = await run(['--max-cost', '0.01']);
    expect(code).toBe(0);
    expect(err).toBe(WARNING);
  });

  it('warns in --json mode too, and not at all without a cost budget or with usage', async () => {
    expect((await run(['--max-cost', '0.01', '--json'])).err).toBe(WARNING);
    expect((await run([])).err).toBe('');
    const withUsage = [
      { chunks: [fixture('openai/parallel-tool-calls.sse')] },
      { chunks: [fixture('openai/text.sse')] },
    ];
    expect((await run(['--max-cost', '0.01'], withUsage)).err).toBe('');
  });
});
