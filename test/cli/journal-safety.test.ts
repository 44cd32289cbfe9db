import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli/main.js';
import { readJournalFile, writeJournalFile } from '../../src/journal.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';
import { spawnCli, until } from './support/spawn-cli.js';

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

const answer: FakeResponse[] = [{ chunks: [fixture('openai/text.sse')] }];

async function run(args: string[], answers = answer) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const code = await main(['run', ...args, '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()], out, err);
  return { code, out: out.text(), err: err.text(), requests: server.requests.length };
}

describe('--journal is checked before the first model request', () => {
  const cwd = cliWorkspace;
  it.each([
    ['an empty name', () => '', '--journal needs a file name'],
    ['a folder', () => cwd(), 'is a folder, not a file'],
    ['a read-only folder', () => '/sys/agent-harness-run.jsonl', "cannot write in the folder '/sys'"],
    ['a missing parent under a file', () => join(cwd(), 'app.py', 'runs', 'run.jsonl'), 'cannot create the folder'],
    ['a missing parent that cannot be created', () => '/sys/agent-harness-test/run.jsonl', 'cannot create the folder'],
  ])('refuses %s: one line, exit 2, no request', async (_what, path, message) => {
    const { code, out, err, requests } = await run(['hi', '--journal', path()]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(requests).toBe(0);
  });

  it('creates missing folders (0700) and saves there', async () => {
    const file = join(cliWorkspace(), 'runs', '2026', 'run.jsonl');
    const { code } = await run(['hi', '--journal', file]);
    expect(code).toBe(0);
    expect((await readJournalFile(file)).at(-1)?.type).toBe('agent_end');
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });
});

describe('--journal over an existing file', () => {
  it("refuses another session's journal with a hint to --resume it, and leaves it alone", async () => {
    const file = join(cliWorkspace(), 'old.jsonl');
    await writeJournalFile(file, [{ type: 'user_message', content: 'earlier' }]);
    const before = readFileSync(file, 'utf8');
    const { code, err, requests } = await run(['hi', '--journal', file]);
    expect(code).toBe(2);
    expect(err).toBe(
      `agent-harness run: --journal: '${file}' already exists; to continue that session use --resume ${file}, or name a new file\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(requests).toBe(0);
  });

  it('refuses it also as the --journal of another --resume, but takes an empty file', async () => {
    const dir = cliWorkspace();
    const resumed = join(dir, 'a.jsonl');
    const other = join(dir, 'b.jsonl');
    await writeJournalFile(resumed, [{ type: 'user_message', content: 'earlier' }]);
    await writeJournalFile(other, []);
    expect((await run(['more', '--resume', resumed, '--journal', other])).code).toBe(2);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect((await run(['hi', '--journal', empty])).code).toBe(0);
    expect((await readJournalFile(empty)).at(-1)?.type).toBe('agent_end');
  });
});

describe('a journal that cannot be saved at the end', () => {
  it('prints the summary anyway and saves to a fallback file (0600) named on stderr, exit 1', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
    const file = join(cliWorkspace(), 'run.jsonl');
    const out = captured();
    const err = captured();
    const controller = new AbortController();
    const command = createRunCommand({ handleSigint: false });
    const args = ['hi', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace(), '--journal', file];
    const pending = command(args, out, controller.signal, err);
    await until(() => (server?.requests.length ?? 0) > 0, 'the request');
    // The journal's name is taken by a folder now: the file written as the run went is gone, and
    // renaming the whole journal onto the folder at the end fails.
    rmSync(file);
    mkdirSync(file);
    controller.abort();
    expect(await pending).toBe(1);
    expect(out.text()).toMatch(/done: stopped: aborted · 1 turn/);
    const [, fallback = ''] =
      /^warning: could not save the journal to '.*run\.jsonl' \(.*\); saved it to '(.*)' instead\n$/.exec(err.text()) ??
      [];
    expect(fallback.startsWith(tmpdir())).toBe(true);
    expect(statSync(fallback).mode & 0o777).toBe(0o600);
    expect((await readJournalFile(fallback)).at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    expect(out.text()).toContain(`journal: ${fallback}`);
  });
});

describe('two processes with the same --journal', () => {
  it('refuses the second at start (the lock names the first), and the first goes on', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }, ...answer]);
    const dir = cliWorkspace();
    const file = join(dir, 'run.jsonl');
    const args = ['run', 'hi', '--base-url', `${server.url}/v1`, '--cwd', dir, '--journal', file];
    const first = spawnCli(args);
    await until(() => (server?.requests.length ?? 0) > 0, 'the first request');
    const second = await spawnCli(args).done;
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `agent-harness run: --journal: '${file}' is in use by another agent-harness run (pid ${first.child.pid}); wait for it, or name another file\n`,
    );
    expect(server.requests).toHaveLength(1);
    first.child.kill('SIGINT');
    const ended = await first.done;
    expect(ended.code).toBe(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('takes over a stale lock whose process is gone', async () => {
    const dir = cliWorkspace();
    const file = join(dir, 'run.jsonl');
    const gone = spawnSync(process.execPath, ['-e', '']); // a process that has ended: its pid is free
    writeFileSync(`${file}.lock`, `${gone.pid}\n`);
    const { code } = await run(['hi', '--journal', file]);
    expect(code).toBe(0);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
