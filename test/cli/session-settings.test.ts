import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { storableUrl } from '../../src/core/redact-url.js';
import { openStore } from '../../src/index.js';
import { type FakeResponse, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

const servers: FakeServer[] = [];
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(answers: FakeResponse[]): Promise<FakeServer> {
  const started = await startFakeServer(answers);
  servers.push(started);
  return started;
}

async function cli(args: string[]) {
  const out = captured();
  const err = captured();
  const code = await main(args, out, err);
  return { code, out: out.text(), err: err.text() };
}

const text = (): FakeResponse => ({ chunks: [fixture('openai/text.sse')] });
const cut = (): FakeResponse => ({ chunks: [fixture('openai/cut.sse')], cut: true });

/**
 * A session started on a local server (`--base-url`, `--model`, `--cwd`, `--tools`) whose run was
 * cut short; `$OPENAI_BASE_URL` then points at another server, standing in for the paid API.
 */
async function cutSessionOnLocalServer() {
  const local = await server([cut(), text()]);
  const paid = await server([text()]);
  const cwd = cliWorkspace();
  const store = `sqlite:${join(cliWorkspace(), 'sessions.db')}`;
  const first = await cli([
    'run',
    'Say hi',
    '--store',
    store,
    '--session',
    'local',
    '--base-url',
    `${local.url}/v1`,
    '--model',
    'qwen2.5:7b',
    '--cwd',
    cwd,
    '--tools',
    'workspace',
    '--deny',
    'shell',
  ]);
  expect(first.code).toBe(1);
  vi.stubEnv('OPENAI_BASE_URL', `${paid.url}/v1`);
  return { local, paid, cwd, store };
}

describe('a stored session keeps its provider, model, base URL, workspace and tools', () => {
  it('in its meta, and resume ID (no flags) goes on with them, not with the defaults', async () => {
    const { local, paid, cwd, store } = await cutSessionOnLocalServer();
    const opened = await openStore(store);
    const { meta } = await opened.read('local');
    await opened.close();
    expect(meta).toMatchObject({
      provider: 'openai',
      model: 'qwen2.5:7b',
      baseURL: `${local.url}/v1`,
      cwd,
      tools: 'workspace',
    });
    expect(JSON.stringify(meta)).not.toContain('sk-test');

    const resumed = await cli(['resume', 'local', '--store', store]);
    expect(resumed.code).toBe(0);
    expect(paid.requests).toHaveLength(0);
    expect(local.requests).toHaveLength(2);
    expect(local.requests[1]?.body).toMatchObject({ model: 'qwen2.5:7b' });
    // The workspace tools, confined to the stored workspace, were offered again.
    const sent = local.requests[1]?.body as { tools?: { function: { name: string } }[] } | undefined;
    expect(sent?.tools?.map((tool) => tool.function.name)).toContain('write_file');
  });

  it('a flag given on resume beats the stored value, and a note says so', async () => {
    const { local, paid, store } = await cutSessionOnLocalServer();
    const resumed = await cli(['run', '--session', 'local', '--store', store, '--model', 'other-model']);
    expect(resumed.code).toBe(0);
    expect(paid.requests).toHaveLength(0);
    expect(local.requests[1]?.body).toMatchObject({ model: 'other-model' });
    expect(resumed.err).toContain("note: --model other-model overrides session 'local''s stored qwen2.5:7b");
  });

  it('a fork keeps them, and the hint fork prints works when copied', async () => {
    const { local, paid, store } = await cutSessionOnLocalServer();
    const forked = await cli(['fork', 'local', '--at', '1', '--id', 'again', '--store', store]);
    expect(forked.code).toBe(0);
    const hint = /continue it: agent-harness (resume again --store \S+) {3}or/.exec(forked.out)?.[1];
    expect(hint).toBe(`resume again --store ${store}`);
    const resumed = await cli((hint ?? '').split(' '));
    expect(resumed.code).toBe(0);
    expect(paid.requests).toHaveLength(0);
    expect(local.requests.at(-1)?.body).toMatchObject({ model: 'qwen2.5:7b' });
  });

  it('a workspace that is gone is refused, naming it and the flag to give', async () => {
    const { cwd, store } = await cutSessionOnLocalServer();
    rmSync(cwd, { recursive: true });
    const resumed = await cli(['resume', 'local', '--store', store]);
    expect(resumed).toMatchObject({ code: 2, out: '' });
    expect(resumed.err).toBe(
      `agent-harness resume: session 'local' ran in '${cwd}', which is not a directory any more: give --cwd\n`,
    );
  });
});

describe('a stored session keeps where shell runs: --sandbox and --allow-net', () => {
  /** A run cut short with `flags`, on a local server; its store and the server. */
  async function cutSession(flags: string[]) {
    const local = await server([cut(), text()]);
    const store = `sqlite:${join(cliWorkspace(), 'sessions.db')}`;
    const args = ['run', 'go', '--store', store, '--session', 'boxed', '--base-url', `${local.url}/v1`];
    const first = await cli([...args, '--cwd', cliWorkspace(), '--tools', 'workspace', ...flags]);
    expect(first.code).toBe(1);
    return { local, store };
  }

  it('in its meta, and resume ID without the flags keeps the sandbox mode (no fallback to auto)', async () => {
    const { store } = await cutSession(['--sandbox', 'none']);
    const opened = await openStore(store);
    const { meta } = await opened.read('boxed');
    await opened.close();
    expect(meta).toMatchObject({ sandbox: 'none', allowNet: '' });
    // Without bubblewrap, auto would fall back with a warning; the stored none runs as asked, silently.
    vi.stubEnv('PATH', '/nonexistent/bin');
    const resumed = await cli(['resume', 'boxed', '--store', store]);
    expect(resumed).toMatchObject({ code: 0, err: '' });
  });

  it('a --sandbox given on resume beats the stored mode, and a note says so', async () => {
    const { store } = await cutSession(['--sandbox', 'none']);
    vi.stubEnv('PATH', '/nonexistent/bin');
    const resumed = await cli(['run', '--session', 'boxed', '--store', store, '--sandbox', 'bwrap']);
    expect(resumed.code).toBe(1);
    expect(resumed.err).toContain("note: --sandbox bwrap overrides session 'boxed''s stored none");
    expect(resumed.err).toContain("sandbox 'bwrap' was asked for: 'bwrap' was not found on PATH");
  });

  it('a journal whose stored mode or hosts are not valid is refused, naming the flag to give', async () => {
    const local = await server([cut()]);
    const journal = join(cliWorkspace(), 'run.jsonl');
    const args = ['run', 'go', '--base-url', `${local.url}/v1`, '--cwd', cliWorkspace(), '--tools', 'workspace'];
    expect((await cli([...args, '--sandbox', 'none', '--journal', journal])).code).toBe(1);
    const saved = readFileSync(journal, 'utf8');
    writeFileSync(journal, saved.replace('"sandbox":"none"', '"sandbox":"docker"'));
    const badMode = await cli(['run', '--resume', journal]);
    expect(badMode.code).toBe(2);
    expect(badMode.err).toContain(`the journal '${journal}' names an unknown sandbox mode 'docker': give --sandbox`);
    writeFileSync(journal, saved.replace('"allowNet":""', '"allowNet":"*,example.com"'));
    const badHosts = await cli(['run', '--resume', journal]);
    expect(badHosts.code).toBe(2);
    expect(badHosts.err).toContain(`the journal '${journal}' keeps hosts that are not valid (`);
    expect(badHosts.err).toContain('give --allow-net');
  });
});

describe('storableUrl', () => {
  it('strips a user name, a password, a fragment and query parameters that may hold a secret', () => {
    expect(storableUrl('http://me:pw@127.0.0.1:8080/v1?api-key=abc&deployment=x&sig=1#frag')).toBe(
      'http://127.0.0.1:8080/v1?deployment=x',
    );
    expect(storableUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
  });
});
