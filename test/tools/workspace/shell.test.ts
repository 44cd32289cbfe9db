import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import { looksSecret, ShellTool, type ShellToolOptions, scrubEnv } from '../../../src/tools/workspace/index.js';
import { workspaceFixture } from './workspace-fixture.js';

/** Whether a process is running (a zombie waiting to be reaped counts as gone). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .startsWith('Z');
  } catch {
    return false; // ps exits 1 when the process is gone
  }
}

/** The pids a command wrote, one per line, to `pids` in the workspace. */
function pidsIn(ws: string): number[] {
  return readFileSync(join(ws, 'pids'), 'utf8').trim().split('\n').map(Number);
}

/** Waits (a little) until none of `pids` runs; returns those still running. */
async function survivors(pids: readonly number[]): Promise<number[]> {
  for (let i = 0; i < 60; i++) {
    if (!pids.some(running)) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.filter(running);
}

function shellIn(ws: string, options: ShellToolOptions = {}) {
  const config = new Config({ cwd: ws });
  return new ToolRegistry(config).register(new ShellTool(config, options));
}

/** A shell command leading a child shell that starts two background sleeps: three generations, pids in `pids`. */
const FAMILY = `echo $$ > pids; sh -c 'echo $$ >> pids; sleep 100 & echo $! >> pids; sleep 100 & echo $! >> pids; wait'`;

const envBefore = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in envBefore)) delete process.env[name];
});

describe('shell', () => {
  it('reports the exit code first, then stdout and stderr, each labelled', async () => {
    const { call } = workspaceFixture();
    expect(await call('shell', { command: 'echo out; echo err >&2' })).toEqual({
      success: true,
      output: 'exit code 0\n[stdout]\nout\n[stderr]\nerr',
    });
  });

  it('treats a non-zero exit code as a result the model sees, not an error', async () => {
    const { call } = workspaceFixture();
    expect(await call('shell', { command: 'echo failing >&2; exit 3' })).toEqual({
      success: true,
      output: 'exit code 3\n[stderr]\nfailing',
    });
    expect((await call('shell', { command: 'true' })).output).toBe('exit code 0\n(no output)');
    expect((await call('shell', { command: 'kill -SEGV $$' })).output).toBe('killed by signal SIGSEGV\n(no output)');
  });

  it('runs in the workspace folder, with no stdin', async () => {
    const { files, call } = workspaceFixture();
    files({ 'marker.txt': 'here' });
    expect((await call('shell', { command: 'cat marker.txt; cat' })).output).toBe('exit code 0\n[stdout]\nhere');
  });

  it('runs an argv array without a shell, keeping spaces and quotes as given', async () => {
    const { call } = workspaceFixture();
    const result = await call('shell', { command: ['printf', '%s|', 'a b', `it's "quoted"`, '$HOME'] });
    expect(result.output).toBe(`exit code 0\n[stdout]\na b|it's "quoted"|$HOME|`);
  });

  it('says when a program cannot be started', async () => {
    const { call } = workspaceFixture();
    expect((await call('shell', { command: ['no-such-program-xyz'] })).error).toBe(
      'could not run "no-such-program-xyz": spawn no-such-program-xyz ENOENT',
    );
    expect((await call('shell', { command: 'a\0b' })).error).toBe('command must not contain NUL bytes');
    expect((await call('shell', { command: [] })).error).toMatch(/^Invalid parameters: command/);
    expect((await call('shell', { command: 'true', timeoutMs: 700_000 })).error).toMatch(
      /^Invalid parameters: timeoutMs/,
    );
  });

  it('on timeout kills the whole process group, grandchildren included, and keeps what was printed', async () => {
    const { ws, call } = workspaceFixture();
    const result = await call('shell', { command: `echo started; ${FAMILY}`, timeoutMs: 400 });
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      'command timed out after 400 ms; its process group was killed (killed by signal SIGTERM)\n[stdout]\nstarted',
    );
    const pids = pidsIn(ws);
    expect(pids).toHaveLength(4);
    expect(await survivors(pids)).toEqual([]);
  });

  it('follows SIGTERM with SIGKILL for processes that ignore it', async () => {
    const { ws } = workspaceFixture();
    const registry = shellIn(ws, { killGraceMs: 200 });
    const command = `trap '' TERM; ${FAMILY}`;
    const result = await registry.invoke('shell', { command, timeoutMs: 300 });
    expect(result.error).toMatch(
      /^command timed out after 300 ms; its process group was killed \(killed by signal SIGKILL\)/,
    );
    expect(await survivors(pidsIn(ws))).toEqual([]);
  });

  it('keeps its own time limit when the config sets a shorter one for tools', async () => {
    const { ws } = workspaceFixture();
    const config = new Config({ cwd: ws, toolTimeoutMs: 50 });
    const registry = new ToolRegistry(config).register(new ShellTool(config));
    expect((await registry.invoke('shell', { command: 'sleep 0.3; echo ok' })).output).toBe(
      'exit code 0\n[stdout]\nok',
    );
  });

  it('kills the process group when the call is aborted', async () => {
    const { ws, call } = workspaceFixture();
    const controller = new AbortController();
    setTimeout(() => controller.abort('user stop'), 300);
    const result = await call('shell', { command: FAMILY }, controller.signal);
    expect(result.error).toMatch(/was aborted: user stop/);
    expect(await survivors(pidsIn(ws))).toEqual([]);
  });

  it('kills what the command leaves running in the background when it exits', async () => {
    const { ws, call } = workspaceFixture();
    const result = await call('shell', { command: 'sleep 100 & echo $! > pids; echo done' });
    expect(result.output).toBe('exit code 0\n[stdout]\ndone');
    expect(await survivors(pidsIn(ws))).toEqual([]);
  });

  it('removes variables that look like secrets from the command environment', async () => {
    const { call } = workspaceFixture();
    process.env.FAKE_API_KEY = 'sk-fake-123';
    process.env.HARNESS_DB = 'postgres://app:hunter2@db/app';
    process.env.HARNESS_PLAIN = 'visible';
    const result = await call('shell', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a JavaScript template
      command: 'echo "key=${FAKE_API_KEY:-unset} db=${HARNESS_DB:-unset} plain=$HARNESS_PLAIN"',
    });
    expect(result.output).toBe('exit code 0\n[stdout]\nkey=unset db=unset plain=visible');
  });

  it('keeps the variables named in keepEnv and adds env', async () => {
    const { ws } = workspaceFixture();
    process.env.FAKE_API_KEY = 'sk-fake-123';
    const registry = shellIn(ws, { keepEnv: ['FAKE_API_KEY'], env: { EXTRA: 'yes' } });
    const result = await registry.invoke('shell', { command: 'echo "$FAKE_API_KEY $EXTRA"' });
    expect(result.output).toBe('exit code 0\n[stdout]\nsk-fake-123 yes');
  });

  it('cuts long output in the middle, keeping its start and end in each stream', async () => {
    const { ws } = workspaceFixture();
    const registry = shellIn(ws, { maxStreamChars: 200 });
    const output = (await registry.invoke('shell', { command: 'seq 1 100000; echo tail-of-err >&2' })).output ?? '';
    expect(output.startsWith('exit code 0\n[stdout]\n1\n2\n3\n')).toBe(true);
    expect(output).toMatch(/\n\[truncated 588,695 characters\]\n/);
    expect(output.endsWith('99999\n100000\n[stderr]\ntail-of-err')).toBe(true);
    expect(output.length).toBeLessThan(500);
  });

  it('shares the observation cap between the two streams so both survive it', async () => {
    const { call } = workspaceFixture({ maxToolOutputChars: 2000 });
    const output = (await call('shell', { command: 'seq 1 100000; seq 1 100000 >&2' })).output ?? '';
    expect(output).toMatch(/^exit code 0\n\[stdout\]\n1\n/);
    expect(output).toMatch(/\n100000\n\[stderr\]\n1\n2\n/);
    expect(output.endsWith('\n100000')).toBe(true);
  });
});

describe('scrubEnv', () => {
  it('drops keys, tokens, passwords, cloud credentials and URLs with a password; keeps the rest', () => {
    const env = {
      OPENAI_API_KEY: 'a',
      ANTHROPIC_API_KEY: 'b',
      GITHUB_TOKEN: 'c',
      AWS_REGION: 'eu-west-1',
      AWS_SECRET_ACCESS_KEY: 'd',
      PGPASSWORD: 'e',
      PGPASSFILE: '/home/x/.pgpass',
      DATABASE_URL: 'postgres://localhost/db',
      SESSION_COOKIE: 'f',
      MY_URL: 'https://user:pw@example.com/',
      PATH: '/usr/bin',
      HOME: '/home/x',
      LANG: 'C.UTF-8',
      PUBLIC_URL: 'https://example.com/',
    };
    expect(scrubEnv(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/x',
      LANG: 'C.UTF-8',
      PUBLIC_URL: 'https://example.com/',
    });
    expect(looksSecret('PATH', '/usr/bin')).toBe(false);
    expect(looksSecret('stripe_secret', 'x')).toBe(true);
  });
});
