import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../src/journal.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { textAnswer, toolCallsAnswer } from './support/approval-sse.js';
import { cliWorkspace } from './support/cli-harness.js';
import { spawnCli, until } from './support/spawn-cli.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('agent-harness run stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s aborts the run like Ctrl-C: summary, journal saved, exit 1',
    async (signal) => {
      server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
      const dir = cliWorkspace();
      const file = join(dir, 'run.jsonl');
      const cli = spawnCli(['run', 'hi', '--base-url', `${server.url}/v1`, '--cwd', dir, '--journal', file]);
      await until(() => (server?.requests.length ?? 0) > 0, 'the request');
      cli.child.kill(signal);
      const { code, stdout, stderr } = await cli.done;
      expect(code).toBe(1);
      expect(stdout).toContain(`✗ stopped (aborted): interrupted (${signal})`);
      expect(stdout).toMatch(/done: stopped: aborted · 1 turn/);
      expect(stderr).toBe('');
      expect((await readJournalFile(file)).at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
      expect(existsSync(`${file}.lock`)).toBe(false);
      await server.clientGone(0);
    },
  );
});

/** Whether any process of group `group` runs (zombies waiting to be reaped do not count). */
function groupRunning(group: number): boolean {
  const rows = execFileSync('ps', ['-e', '-o', 'pgid=,stat='], { encoding: 'utf8' }).trim().split('\n');
  return rows.some((row) => {
    const [id, stat] = row.trim().split(/\s+/);
    return Number(id) === group && !stat?.startsWith('Z');
  });
}

describe('agent-harness run stopped twice while a shell command runs', { timeout: 120_000 }, () => {
  it('Ctrl-C twice kills a command that ignores SIGTERM: it never finishes', async () => {
    // The command survives the first stop (it traps SIGTERM, noting it in `term`), so only the
    // second can end it; it would write `marker` after 30 s or more, far beyond the kill grace
    // (2 s) and the wait for the group to go (20 s), however late a loaded machine delivers them. Unsandboxed: its `$$` is a host
    // pid (in bubblewrap the first stop kills its whole PID namespace: test/tools/sandbox).
    const command =
      "trap 'touch term' TERM; echo $$ > pid.tmp && mv pid.tmp pid; " +
      'i=0; while [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; touch marker';
    server = await startFakeServer([toolCallsAnswer(['call_S', 'shell', { command }]), textAnswer('done')]);
    const dir = cliWorkspace();
    const cli = spawnCli(
      [
        'run',
        'go',
        '--base-url',
        `${server.url}/v1`,
        '--cwd',
        dir,
        '--tools',
        'workspace',
        '--allow',
        'shell',
        '--sandbox',
        'none',
      ],
      { AGENT_HARNESS_STORE: 'memory:' },
      60_000,
    );
    await until(() => existsSync(join(dir, 'pid')), 'the command to start', 60_000);
    const group = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    try {
      cli.child.kill('SIGINT');
      await until(() => existsSync(join(dir, 'term')), 'the first stop to reach the command');
      cli.child.kill('SIGINT');
      // The first stop may already have ended the run (exit 1) before the second arrives (130),
      // or the second may land while the process is exiting, after its handlers are gone, and
      // end it as Ctrl-C ends any process (killed by SIGINT): every way out must leave nothing
      // of the command running.
      const { code, signal } = await cli.done;
      expect(code === null ? signal : code).toBeOneOf([1, 130, 'SIGINT']);
      await until(() => !groupRunning(group), 'the command to be gone', 20_000);
      expect(existsSync(join(dir, 'marker'))).toBe(false);
    } finally {
      if (groupRunning(group)) process.kill(-group, 'SIGKILL');
    }
  });
});
