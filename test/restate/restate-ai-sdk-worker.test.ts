import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCliStore } from '../../src/cli/store-flags.js';
import { partNote } from '../../src/core/content-parts.js';
import { type DevServer as RestateServer, startDevServer as startRestateServer } from '../../src/restate/dev-server.js';
import { runOutcome, submitRun } from '../../src/restate/ingress-client.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { type CliProcess, spawnCli, until } from '../cli/support/spawn-cli.js';
import { freePort } from '../support/free-port.js';

/** What the CLI processes may take on a loaded machine. */
const SLOW = 60_000;

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The worker's cap on one image or file. */
const CAP = 100_000;

let server: RestateServer;
let model: FakeServer;
let worker: CliProcess;
let folder: string | undefined;
let store: string;
let workspace: string;
let printed = '';

/**
 * An AI SDK provider package installed in the workspace: its default instance is
 * `@ai-sdk/openai-compatible`'s, pointed at `LOOPBACK_BASE_URL` (as a real package reads its
 * settings from its own environment variables).
 */
function installProviderPackage(workspace: string): void {
  const dir = join(workspace, 'node_modules', 'loopback-provider');
  mkdirSync(dir, { recursive: true });
  const compatible = pathToFileURL(createRequire(import.meta.url).resolve('@ai-sdk/openai-compatible')).href;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'loopback-provider', type: 'module', main: 'index.js' }),
  );
  writeFileSync(
    join(dir, 'index.js'),
    `import { createOpenAICompatible } from ${JSON.stringify(compatible)};\n` +
      `export default createOpenAICompatible({ name: 'loopback', baseURL: process.env.LOOPBACK_BASE_URL, apiKey: 'none', includeUsage: true });\n`,
  );
}

beforeAll(async () => {
  server = await startRestateServer();
  model = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }, { chunks: [fixture('openai/text.sse')] }]);
  folder = mkdtempSync(join(tmpdir(), 'agent-harness-restate-ai-sdk-'));
  workspace = mkdtempSync(join(folder, 'workspace-'));
  installProviderPackage(workspace);
  writeFileSync(join(workspace, 'shot.png'), Buffer.from(PNG, 'base64'));
  store = `sqlite:${join(folder, 'sessions.db')}`;
  const port = await freePort();
  const provider = 'ai-sdk:loopback-provider/gpt-4.1-mini';
  worker = spawnCli(
    [
      'worker',
      '--restate',
      server.adminUrl,
      '--port',
      String(port),
      '--store',
      store,
      '--cwd',
      workspace,
      '--provider',
      provider,
      '--max-attachment-bytes',
      String(CAP),
    ],
    { LOOPBACK_BASE_URL: `${model.url}/v1` },
    10 * SLOW,
  );
  worker.child.stdout?.on('data', (text: string) => {
    printed += text;
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

describe('agent-harness worker --provider ai-sdk:<package>/<model>', { timeout: 3 * SLOW }, () => {
  it('runs the submitted run on the package’s model, through its own wire format', async () => {
    const run = await spawnCli(
      ['run', 'Say hi', '--restate', server.ingressUrl, '--store', store, '--session', 'ai-1'],
      {},
      2 * SLOW,
    ).done;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Café au lait costs 3 €; 日本語 ✓');
    expect(run.stdout).toContain('done: final answer · session ai-1');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.url).toBe('/v1/chat/completions');
    expect(model.requests[0]?.body).toMatchObject({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Say hi' }],
    });
  });
});

describe('agent-harness run --restate --image', { timeout: 3 * SLOW }, () => {
  it('carries the image with the task to the worker: the model gets it, the stored journal keeps the parts', async () => {
    const run = await spawnCli(
      [
        'run',
        'What is this?',
        '--image',
        join(workspace, 'shot.png'),
        '--restate',
        server.ingressUrl,
        '--store',
        store,
        '--session',
        'img-1',
      ],
      {},
      2 * SLOW,
    ).done;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const sent = JSON.stringify(model.requests.at(-1)?.body);
    // As a data URL where the AI SDK bridge sends images natively, else as the note standing for it.
    const note = partNote({ type: 'image', mediaType: 'image/png', data: PNG });
    expect(sent.includes(`data:image/png;base64,${PNG}`) || sent.includes(JSON.stringify(note).slice(1, -1))).toBe(
      true,
    );
    const journals = await openCliStore(store);
    try {
      const { entries } = await journals.read('img-1');
      expect(entries.find((entry) => entry.type === 'user_message')).toMatchObject({
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      });
    } finally {
      await journals.close();
    }
  });

  it('a task over the worker’s cap ends the run at once with the reason (a terminal error, not retried)', async () => {
    const requests = model.requests.length;
    const big = Buffer.alloc(CAP + 1).toString('base64');
    const invocation = await submitRun(server.ingressUrl, 'img-2', [
      { type: 'text', text: 'Look' },
      { type: 'image', mediaType: 'image/png', data: big },
    ]);
    await expect(runOutcome(server.ingressUrl, invocation)).rejects.toThrow(
      `run() input part 1: the image is ${CAP + 1} bytes, over the cap of ${CAP} (maxAttachmentBytes)`,
    );
    expect(model.requests).toHaveLength(requests);
  });
});
