import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServer as RestateServer, startDevServer as startRestateServer } from '../../src/restate/dev-server.js';
import { type FakeServer, startFakeServer } from '../adapters/support/fake-server.js';
import { textAnswer, toolCallsAnswer } from '../cli/support/approval-sse.js';
import { type CliProcess, spawnCli, until } from '../cli/support/spawn-cli.js';
import { freePort } from '../support/free-port.js';

/** What the CLI processes may take on a loaded machine. */
const SLOW = 60_000;

let server: RestateServer;
let model: FakeServer;
let worker: CliProcess;
let workspace: string;
let store: string;
let folder: string | undefined;
let workerErrors = '';

let printed = '';
beforeAll(async () => {
  server = await startRestateServer();
  // The model: asks to write a file (which asks for approval), then answers.
  model = await startFakeServer([
    toolCallsAnswer(['call_W', 'write_file', { path: 'out.txt', content: 'durable' }]),
    textAnswer('written'),
    toolCallsAnswer(['call_W2', 'write_file', { path: 'two.txt', content: 'never' }]),
    textAnswer('not reached'),
  ]);
  // Not tempWorkspace(): its folders go after each test, and these outlive every test here.
  folder = mkdtempSync(join(tmpdir(), 'agent-harness-restate-cli-'));
  workspace = mkdtempSync(join(folder, 'workspace-'));
  store = `sqlite:${join(folder, 'sessions.db')}`;
  const port = await freePort();
  worker = spawnCli(
    [
      'worker',
      '--restate',
      server.adminUrl,
      '--port',
      String(port),
      '--store',
      store,
      '--tools',
      'workspace',
      '--cwd',
      workspace,
    ],
    { OPENAI_BASE_URL: `${model.url}/v1` },
    10 * SLOW,
  );
  worker.child.stdout?.on('data', (text: string) => {
    printed += text;
  });
  worker.child.stderr?.on('data', (text: string) => {
    workerErrors += text;
  });
  await until(() => printed.includes('worker: serving'), `the worker to serve (${printed})`, SLOW);
}, 2 * SLOW);

afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.done;
  await model?.close();
  await server?.stop();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe('agent-harness worker, run --restate, approve', { timeout: 3 * SLOW }, () => {
  it('submits a run, follows it to the approval wait, and approve from another process finishes it', async () => {
    const run = spawnCli(
      ['run', 'write it', '--restate', server.ingressUrl, '--store', store, '--session', 'cli-1'],
      {},
      2 * SLOW,
    );
    let output = '';
    run.child.stdout?.on('data', (text: string) => {
      output += text;
    });
    await until(
      () => output.includes('decide with: agent-harness approve cli-1 call_W'),
      `the approval hint (${output})`,
      SLOW,
    );
    expect(existsSync(join(workspace, 'out.txt'))).toBe(false);
    const approve = await spawnCli(['approve', 'cli-1', 'call_W', '--restate', server.ingressUrl], {}, SLOW).done;
    expect(approve.stdout).toContain('approved: call_W of session cli-1');
    expect(approve.code).toBe(0);
    const done = await run.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain('→ write_file');
    expect(done.stdout).toContain('✓ call_W');
    expect(done.stdout).toContain('written');
    expect(done.stdout).toContain('done: final answer · session cli-1');
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('durable');
  });

  it('Ctrl-C detaches and leaves the run waiting; run --session ID --cancel cancels it; sessions lists it', async () => {
    const run = spawnCli(
      ['run', 'write two', '--restate', server.ingressUrl, '--store', store, '--session', 'cli-2'],
      {},
      2 * SLOW,
    );
    let output = '';
    run.child.stdout?.on('data', (text: string) => {
      output += text;
    });
    let errors = '';
    run.child.stderr?.on('data', (text: string) => {
      errors += text;
    });
    await until(
      () => output.includes('decide with: agent-harness approve cli-2 call_W2'),
      'the approval hint',
      SLOW,
    ).catch(async (error: unknown) => {
      const listedRun = await spawnCli(['sessions', '--store', store], {}, SLOW).done;
      const listed = listedRun.stdout + listedRun.stderr;
      throw new Error(
        `${listed}\n${String(error)}: ${output}${errors}\n${model.requests.length} model requests\n${workerErrors}\n${printed}`,
      );
    });
    run.child.kill('SIGINT');
    const detached = await run.done;
    expect(detached.code).toBe(130);
    expect(detached.stdout).toContain(
      `detached: the run goes on. Cancel it with: agent-harness run --restate ${server.ingressUrl} --session cli-2 --cancel`,
    );
    const cancel = await spawnCli(['run', '--restate', server.ingressUrl, '--session', 'cli-2', '--cancel'], {}, SLOW)
      .done;
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain('cancelled the run of session cli-2');
    let listed = '';
    for (const deadline = Date.now() + SLOW; Date.now() < deadline; ) {
      listed = (await spawnCli(['sessions', '--store', store, '--json'], {}, SLOW).done).stdout;
      if (/"id":"cli-2"[^}]*"status":"error"/.test(listed)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(listed).toMatch(/"id":"cli-1"[^}]*"status":"done"/);
    expect(listed).toMatch(/"id":"cli-2"[^}]*"status":"error"/);
    expect(existsSync(join(workspace, 'two.txt'))).toBe(false);
  });

  it('refuses approve for a call that does not wait, in one line naming it (exit 1)', async () => {
    const refused = await spawnCli(['approve', 'cli-1', 'call_X', '--restate', server.ingressUrl], {}, SLOW).done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/session 'cli-1' has no call 'call_X' waiting for a decision/);
  });

  it('refuses a --restate that is not a URL, and a worker without --restate (exit 2)', async () => {
    const bad = await spawnCli(['run', 'x', '--restate', 'nope'], {}, SLOW).done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--restate must be a URL such as http://127.0.0.1:8080, got 'nope'");
    const missing = await spawnCli(['worker'], {}, SLOW).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --restate URL');
  });
});
