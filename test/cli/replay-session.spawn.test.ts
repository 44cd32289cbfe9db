import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Runs the real binary without blocking this process, where the fake server lives. */
function cli(args: string[]) {
  const env = { ...process.env, OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs('src/cli/bin.ts'), ...args],
      { cwd: root, env, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Records a two-turn run (one read_file call, then an answer) with `run --journal`; returns the
 * journal's path. One call: with `--live`, two concurrent calls settle in whatever order the
 * machine's timing gives, and a replay reports another order as a divergence.
 */
async function recordRun(): Promise<string> {
  server = await startFakeServer([
    { chunks: [fixture('openai/one-tool-call.sse')] },
    { chunks: [fixture('openai/text.sse')] },
  ]);
  const journal = join(mkdtempSync(join(tmpdir(), 'replay-session-')), 'run.jsonl');
  const run = await cli([
    'run',
    'What is here?',
    '--cwd',
    cliWorkspace(),
    '--base-url',
    `${server.url}/v1`,
    '--store',
    'memory:',
    '--journal',
    journal,
  ]);
  expect(run.code).toBe(0);
  await server.close();
  server = undefined;
  return journal;
}

describe('agent-harness replay without --agent', () => {
  it('rebuilds the agent of a run recorded by the CLI: its workspace matches, another one diverges', async () => {
    const journal = await recordRun();
    const ok = 'cassette: ok, the run matched the recording\n';

    // No model server is running any more: the cassette's client answers.
    expect(await cli(['replay', journal, '--check'])).toMatchObject({ code: 0, stdout: ok, stderr: '' });
    // --live runs read_file again, in the stored workspace: the same results.
    expect(await cli(['replay', journal, '--check', '--live'])).toMatchObject({ code: 0, stdout: ok });

    const empty = mkdtempSync(join(tmpdir(), 'replay-empty-'));
    const other = await cli(['replay', journal, '--check', '--live', '--cwd', empty]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`note: --cwd ${empty} overrides the journal '`);
    expect(other.stdout).toContain('tool result diverged');
  }, 60_000);

  it('follows the settings stored in the journal: a workspace changed there diverges', async () => {
    const journal = await recordRun();
    const [header, ...rest] = readFileSync(journal, 'utf8').split('\n');
    const parsed = JSON.parse(header ?? '') as { meta: Record<string, string> };
    parsed.meta.cwd = mkdtempSync(join(tmpdir(), 'replay-empty-'));
    writeFileSync(journal, [JSON.stringify(parsed), ...rest].join('\n'));

    const result = await cli(['replay', journal, '--check', '--live']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('tool result diverged');
  }, 60_000);

  it('replays a session stored by run --store, by its id, on the agent rebuilt from it', async () => {
    server = await startFakeServer([
      { chunks: [fixture('openai/one-tool-call.sse')] },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), 'replay-store-')), 'runs.db')}`;
    const run = await cli([
      'run',
      'What is here?',
      '--cwd',
      cliWorkspace(),
      '--base-url',
      `${server.url}/v1`,
      '--store',
      store,
    ]);
    const id = /session: ([0-9a-f]{12})/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();

    const same = await cli(['replay', id ?? '', '--store', store, '--check', '--live']);
    expect(same).toMatchObject({ code: 0, stdout: 'cassette: ok, the run matched the recording\n' });
    const empty = mkdtempSync(join(tmpdir(), 'replay-empty-'));
    const other = await cli(['replay', id ?? '', '--store', store, '--check', '--live', '--cwd', empty]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`note: --cwd ${empty} overrides session '${id}'`);
  }, 60_000);

  it('refuses a journal that keeps no run settings with exit 2, asking for --agent MODULE', async () => {
    const journal = await recordRun();
    const [header, ...rest] = readFileSync(journal, 'utf8').split('\n');
    const parsed = JSON.parse(header ?? '') as { meta?: unknown };
    delete parsed.meta;
    writeFileSync(journal, [JSON.stringify(parsed), ...rest].join('\n'));

    const result = await cli(['replay', journal, '--check']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('keeps no run settings');
    expect(result.stderr).toContain('pass --agent MODULE');

    const both = await cli(['replay', journal, '--check', '--agent', 'examples/cassettes/agent.ts', '--tools', 'read']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--agent MODULE builds its own');
  }, 60_000);
});
