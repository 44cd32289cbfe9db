import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openStore } from '../../src/index.js';
import { readJournalFile } from '../../src/journal.js';
import { journalMeta } from '../../src/session/journal-file.js';
import { JOURNAL_VERSION } from '../../src/session/journal-version.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { textAnswer, toolCallsAnswer } from './support/approval-sse.js';
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

async function cli(args: string[], answers: FakeResponse[] = []) {
  server = await startFakeServer(answers);
  const out = captured();
  const err = captured();
  const withModel = args[0] === 'run' || args[0] === 'resume' ? [...args, '--base-url', `${server.url}/v1`] : args;
  const code = await main(withModel, out, err);
  const requests = server.requests;
  await server.close();
  server = undefined;
  return { code, out: out.text(), err: err.text(), requests };
}

const text = (): FakeResponse => ({ chunks: [fixture('openai/text.sse')] });
const tools = (): FakeResponse => ({ chunks: [fixture('openai/whole-tool-calls.sse')] });

describe('agent-harness run --store URL --session ID', () => {
  it('keeps the session in the store as it runs, names it, and continues it with a follow-up', async () => {
    const cwd = cliWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    const first = await cli(
      ['run', 'Read the files', '--store', store, '--session', 'talk', '--cwd', cwd],
      [tools(), text()],
    );
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^session: talk \(\d+ entries in sqlite:.*sessions\.db\)$/m);
    const followUp = await cli(['run', 'And again?', '--store', store, '--session', 'talk', '--cwd', cwd], [text()]);
    expect(followUp.code).toBe(0);
    const sent = followUp.requests[0]?.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user']);

    const opened = await openStore(store);
    const { entries, meta } = await opened.read('talk');
    await opened.close();
    expect(entries.filter((e) => e.type === 'user_message')).toHaveLength(2);
    expect(meta).toMatchObject({ model: 'gpt-4.1-mini', journalVersion: String(JOURNAL_VERSION) });
    expect(Number(meta.inputRatePer1k)).toBeGreaterThan(0);

    const listed = await cli(['sessions', '--store', store]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^ID\s+STATUS\s+ENTRIES\s+LAST ACTIVITY \(UTC\)$/m);
    expect(listed.out).toMatch(
      new RegExp(`^talk\\s+done\\s+${entries.length}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`, 'm'),
    );
    const json = await cli(['sessions', '--store', store, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ id: 'talk', status: 'done', entries: entries.length });
  });

  it('a new session gets an id of its own, and the default store is $AGENT_HARNESS_STORE', async () => {
    const cwd = cliWorkspace();
    vi.stubEnv('AGENT_HARNESS_STORE', `jsonl:${join(cwd, 'kept')}`);
    const run = await cli(['run', 'Say hi', '--cwd', cwd, '--json'], [text()]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out.trim().split('\n').at(-1) ?? '{}') as { data: { session: string } };
    expect(summary.data.session).toMatch(/^[0-9a-f]{12}$/);
    expect(existsSync(join(cwd, 'kept', `${summary.data.session}.jsonl`))).toBe(true);
  });

  it('resume ID finishes an interrupted stored run; fork ID --at N starts another from an earlier point', async () => {
    const cwd = cliWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    const cut = await cli(
      ['run', 'Read the files', '--store', store, '--session', 'cut', '--cwd', cwd],
      [tools(), { chunks: [fixture('openai/cut.sse')], cut: true }],
    );
    expect(cut.code).toBe(1);
    const resumed = await cli(['resume', 'cut', '--store', store, '--cwd', cwd], [text()]);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(/done: final answer/);
    // The recorded tool results were sent again, not re-run.
    const sent = resumed.requests[0]?.body as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);

    const opened = await openStore(store);
    const original = (await opened.read('cut')).entries;
    await opened.close();
    const at = original.findIndex((e) => e.type === 'assistant_message') + 1;
    const forked = await cli(['fork', 'cut', '--at', String(at), '--id', 'other', '--store', store]);
    expect(forked).toMatchObject({ code: 0, err: '' });
    expect(forked.out).toContain(`forked cut at entry ${at} into other`);
    const again = await cli(['resume', 'other', '--store', store, '--cwd', cwd], [text()]);
    expect(again.code).toBe(0);
    const check = await openStore(store);
    expect((await check.read('cut')).entries).toEqual(original);
    const { entries: fork, meta } = await check.read('other');
    // The fork keeps the model and its rates, so `inspect other` prices it as the original.
    const { journalVersion: _, ...kept } = (await check.read('cut')).meta;
    expect(kept.model).toBe('gpt-4.1-mini');
    expect(meta).toMatchObject(kept);
    await check.close();
    expect(fork.slice(0, at)).toEqual(original.slice(0, at));
    expect(fork.at(-1)).toMatchObject({ type: 'agent_end' });
  });

  it('refuses a second live writer of a session (exit 2, naming the holder)', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/cut.sse')], hang: true }]);
    const cwd = cliWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    const first = spawnCli([
      'run',
      'hi',
      '--store',
      store,
      '--session',
      'busy',
      '--base-url',
      `${server.url}/v1`,
      '--cwd',
      cwd,
    ]);
    await until(() => (server?.requests.length ?? 0) > 0, 'the first run’s request');
    const out = captured();
    const err = captured();
    const code = await main(['run', 'hi too', '--store', store, '--session', 'busy', '--cwd', cwd], out, err);
    expect(code).toBe(2);
    expect(err.text()).toMatch(/session 'busy' in sqlite:.* is locked by another live writer \(pid \d+/);
    first.child.kill('SIGKILL');
    await first.done;
  });
});

describe('bad input', () => {
  it.each([
    [
      ['run', 'hi', '--store', 'mysql://db'],
      "--store must be a store URL (memory:[name], jsonl:<folder>, sqlite:<file>, postgres://user:password@host:port/database[?schema=name]), got 'mysql://db'",
    ],
    [['run', 'hi', '--store', 'sqlite:'], "--store 'sqlite:' names no path; use sqlite:<path>"],
    [
      ['run', 'hi', '--store', 'postgres://me:secret@h/db?x', '--session', '../etc'],
      "--session must be a session id (1-128 of A-Z a-z 0-9 . _ -, not starting with '.'), got '../etc'",
    ],
    [
      ['run', 'hi', '--session', 'a', '--resume', 'package.json'],
      '--resume FILE and --session ID both name the session to continue: give one',
    ],
    [['resume'], 'give the id of the session to resume, e.g. agent-harness resume 3f9c2a7d1e5b'],
    [
      ['resume', 'x y'],
      "resume ID must be a session id (1-128 of A-Z a-z 0-9 . _ -, not starting with '.'), got 'x y'",
    ],
    [['resume', 'nobody', '--store', 'memory:'], "no session 'nobody' in memory: to resume; give a task to start one"],
    [['fork', 'a'], 'fork needs --at N, the number of entries to keep'],
    [['fork', 'a', '--at', '-1'], "--at must be a whole number of entries (0 or more), got '-1'"],
    [['fork', 'a', '--at', '1e3'], "--at must be a whole number of entries (0 or more), got '1e3'"],
    [['fork', '--at', '1'], 'give exactly one session id to fork'],
    [['fork', 'nobody', '--at', '1', '--store', 'memory:'], "no session 'nobody' in memory:"],
    [
      ['fork', 'a', '--at', '1', '--id', '.hidden'],
      "--id must be a session id (1-128 of A-Z a-z 0-9 . _ -, not starting with '.'), got '.hidden'",
    ],
    [['sessions', 'extra'], "sessions takes no arguments, got 'extra'"],
    [
      ['sessions', '--store', 'nope'],
      "--store must be a store URL (memory:[name], jsonl:<folder>, sqlite:<file>, postgres://user:password@host:port/database[?schema=name]), got 'nope'",
    ],
    [['inspect', 'nobody', '--store', 'memory:'], "no session 'nobody' in memory:"],
  ])('%j: exit 2 with one line naming the input', async (args, message) => {
    const out = captured();
    const err = captured();
    expect(await main(args, out, err)).toBe(2);
    expect(err.text()).toBe(`agent-harness ${args[0]}: ${message}\n`);
  });

  it('never prints a store password', async () => {
    const err = captured();
    expect(await main(['run', 'hi', '--store', 'pg://me:secret@h/db'], captured(), err)).toBe(2);
    expect(err.text()).not.toContain('secret');
  });

  it('fork --at past the end names the length', async () => {
    const cwd = cliWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    expect((await cli(['run', 'Say hi', '--store', store, '--session', 's', '--cwd', cwd], [text()])).code).toBe(0);
    const { code, err } = await cli(['fork', 's', '--at', '999', '--store', store]);
    expect(code).toBe(2);
    expect(err).toMatch(/^agent-harness fork: --at 999 is past the end of session 's' \(\d+ entries\)\n$/);
  });
});

describe('run --journal FILE', () => {
  it('names the model and its rates in the header, so that inspect prices the run as the CLI did', async () => {
    const cwd = cliWorkspace();
    const file = join(cwd, 'run.jsonl');
    expect((await cli(['run', 'Say hi', '--journal', file, '--cwd', cwd], [text()])).code).toBe(0);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '') as { meta: Record<string, string> };
    expect(header).toMatchObject({
      format: 'agent-harness-journal',
      version: JOURNAL_VERSION,
      meta: { model: 'gpt-4.1-mini' },
    });
    expect(journalMeta(readFileSync(file, 'utf8'))).toEqual(header.meta);
    expect(Number(header.meta.outputRatePer1k)).toBeGreaterThan(Number(header.meta.inputRatePer1k));
    expect(journalMeta('{"format":"agent-harness-journal","version":2}\n')).toEqual({});
    expect(journalMeta('not json')).toEqual({});
  });
});

describe('run --journal FILE, killed', () => {
  it('SIGKILL mid-run leaves every entry so far on disk (the file is written as the run goes)', async () => {
    server = await startFakeServer([tools(), { chunks: [fixture('openai/cut.sse')], hang: true }]);
    const cwd = cliWorkspace();
    const file = join(cwd, 'run.jsonl');
    const cli = spawnCli(['run', 'Read the files', '--journal', file, '--base-url', `${server.url}/v1`, '--cwd', cwd]);
    await until(() => (server?.requests.length ?? 0) > 1, 'the second request');
    cli.child.kill('SIGKILL');
    await cli.done;
    const journal = await readJournalFile(file);
    expect(journal.filter((e) => e.type === 'tool_result')).toHaveLength(2);
    expect(journal.at(-1)).toMatchObject({ type: 'turn_start' });
  });
});

describe('agent-harness run --tools workspace with the store inside the workspace', () => {
  it("refuses the model's write over the store, which keeps the session", async () => {
    const cwd = cliWorkspace();
    const store = `sqlite:${join(cwd, 'sessions.db')}`;
    const overwrite = toolCallsAnswer(['call_W', 'write_file', { path: 'sessions.db', content: 'gone' }]);
    const run = await cli(
      ['run', 'Wipe it', '--tools', 'workspace', '--allow', 'write', '--store', store, '--session', 's1', '--cwd', cwd],
      [overwrite, textAnswer('tried')],
    );
    expect(run.code).toBe(0);
    const body = run.requests[1]?.body as { messages: { role: string; content: string }[] } | undefined;
    const observation = body?.messages.at(-1);
    expect(observation).toMatchObject({
      role: 'tool',
      content: "Error: path 'sessions.db' is in the session store, which the workspace tools do not touch",
    });
    const opened = await openStore(store);
    const { entries } = await opened.read('s1');
    await opened.close();
    expect(entries.at(-1)).toMatchObject({ type: 'agent_end' });
  });
});
