import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

startPostgresBeforeAll();

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

async function cli(args: string[], answers: FakeResponse[] = []) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const withModel = args[0] === 'run' || args[0] === 'resume' ? [...args, '--base-url', `${server.url}/v1`] : args;
  const code = await main(withModel, out, err);
  await server.close();
  server = undefined;
  return { code, out: out.text(), err: err.text() };
}

/** The test server trusts loopback, so a password in the URL is accepted and ignored. */
async function urlWithPassword(): Promise<string> {
  return (await freshPostgresUrl()).replace('postgres://postgres@', 'postgres://postgres:hunter2secret@');
}

describe('a postgres store URL with a password', () => {
  it('is masked in the run summary, the JSON summary and the sessions listing', async () => {
    const cwd = cliWorkspace();
    const store = await urlWithPassword();
    const run = await cli(
      ['run', 'Say hi', '--store', store, '--session', 'pg1', '--cwd', cwd],
      [{ chunks: [fixture('openai/text.sse')] }],
    );
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^session: pg1 \(\d+ entries in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/harness_test\?schema=t_[0-9a-f]+\)$/m,
    );
    const json = await cli(
      ['run', 'Again', '--store', store, '--session', 'pg1', '--cwd', cwd, '--json'],
      [{ chunks: [fixture('openai/text.sse')] }],
    );
    expect(json.code).toBe(0);
    const listed = await cli(['sessions', '--store', store]);
    expect(listed.out).toMatch(/^pg1\s+done\s+\d+/m);
    for (const printed of [run, json, listed]) expect(printed.out + printed.err).not.toContain('hunter2secret');
  });
});
