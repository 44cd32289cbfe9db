import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Config, ToolRegistry } from '../../../src/index.js';
import {
  looksSecret,
  SHELL_ENV_ALLOWED,
  ShellTool,
  type ShellToolOptions,
  scrubEnv,
} from '../../../src/tools/workspace/index.js';
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

/** Whether any process of group `group` runs (zombies waiting to be reaped do not count). */
function groupRunning(group: number): boolean {
  const rows = execFileSync('ps', ['-e', '-o', 'pgid=,stat='], { encoding: 'utf8' }).trim().split('\n');
  return rows.some((row) => {
    const [id, stat] = row.trim().split(/\s+/);
    return Number(id) === group && !stat?.startsWith('Z');
  });
}

/** Waits until `check()` holds, polling; false if it did not within `ms`. */
async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (check()) return true;
  }
  return check();
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

  it('kills the process group when the host exits while the command runs', { timeout: 60_000 }, async () => {
    const { ws } = workspaceFixture();
    const host = fileURLToPath(new URL('./host-exits-while-shell-runs.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', host, ws], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const group = Number(readFileSync(join(ws, 'pid'), 'utf8'));
    try {
      expect(await eventually(() => !groupRunning(group))).toBe(true);
      expect(existsSync(join(ws, 'marker'))).toBe(false);
    } finally {
      if (groupRunning(group)) process.kill(-group, 'SIGKILL');
    }
  });

  it('passes only the allow-listed variables: secrets under any name stay out', async () => {
    const { call } = workspaceFixture();
    Object.assign(process.env, {
      GITHUB_PAT: 'ghp_fake',
      MYSQL_PWD: 'hunter2',
      CI_JOB_JWT: 'eyJfake',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/fake',
      FAKE_API_KEY: 'sk-fake-123',
      LC_TIME: 'C',
      TZ: 'UTC',
    });
    // An argv array runs `env` without a shell, which would add PWD of its own.
    const result = await call('shell', { command: ['env'] });
    const names = (result.output ?? '')
      .split('\n')
      .slice(2)
      .map((line) => line.slice(0, line.indexOf('=')));
    const allowed = (name: string) =>
      SHELL_ENV_ALLOWED.some((a) => (a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : name === a));
    expect(names.filter((name) => !allowed(name))).toEqual([]);
    expect(result.output).not.toMatch(/ghp_fake|hunter2|eyJfake|hooks\.slack|sk-fake/);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'LC_TIME', 'TZ']));
  });

  it('passes the variables named in keepEnv (names or PREFIX*) and adds env', async () => {
    const { ws } = workspaceFixture();
    Object.assign(process.env, { FAKE_API_KEY: 'sk-fake-123', HARNESS_A: 'a', HARNESS_B: 'b', OTHER: 'no' });
    const registry = shellIn(ws, { keepEnv: ['FAKE_API_KEY', 'HARNESS_*'], env: { EXTRA: 'yes' } });
    const result = await registry.invoke('shell', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a JavaScript template
      command: 'echo "$FAKE_API_KEY $HARNESS_A $HARNESS_B ${OTHER:-unset} $EXTRA"',
    });
    expect(result.output).toBe('exit code 0\n[stdout]\nsk-fake-123 a b unset yes');
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
  it('keeps only the allow-listed variables, and none whose value holds a password', () => {
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
      GITHUB_PAT: 'g',
      MYSQL_PWD: 'h',
      CI_JOB_JWT: 'i',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/x',
      PATH: '/usr/bin',
      HOME: '/home/x',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TERM: 'https://user:pw@example.com/',
      PUBLIC_URL: 'https://example.com/',
    };
    expect(scrubEnv(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/x', LANG: 'C.UTF-8', LC_ALL: 'C' });
    expect(scrubEnv(env, ['MYSQL_PWD', 'PUBLIC_*'])).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/x',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      MYSQL_PWD: 'h',
      PUBLIC_URL: 'https://example.com/',
    });
    expect(looksSecret('PATH', '/usr/bin')).toBe(false);
    expect(looksSecret('stripe_secret', 'x')).toBe(true);
  });
});
