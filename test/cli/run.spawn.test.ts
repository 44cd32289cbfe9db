import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { nodeArgs } from '../support/script-bundles.js';
import { cliWorkspace } from './support/cli-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the real binary (through tsx) without blocking this process, where the fake server lives. */
function cli(args: string[], env: Record<string, string | undefined>) {
  const clean = { ...process.env, OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, ...env };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs('src/cli/bin.ts'), ...args],
      { cwd: root, env: clean, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the agent-harness binary', () => {
  it('runs a task against an OpenAI-compatible server given by OPENAI_BASE_URL', async () => {
    server = await startFakeServer([
      { chunks: [fixture('openai/parallel-tool-calls.sse')] },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const result = await cli(['run', 'What is here?', '--cwd', cliWorkspace()], {
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ read_file');
    expect(result.stdout).toMatch(/done: final answer · 2 turns/);
  });

  it('says in one line that the key is missing, and exits 2', async () => {
    const result = await cli(['run', 'hi'], {});
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'agent-harness run: OPENAI_API_KEY is not set: export it, or point --base-url at a server that needs no key\n',
    );
  });

  it('says in one line that the server is unreachable, and exits 1', async () => {
    const closed = await startFakeServer([]);
    await closed.close();
    const result = await cli(['run', 'hi', '--base-url', closed.url, '--cwd', cliWorkspace()], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `✗ stopped (model_error): openai at ${closed.url}: cannot connect (ECONNREFUSED)\n`,
    );
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });
});
