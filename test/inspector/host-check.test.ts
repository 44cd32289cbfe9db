import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoCommand } from '../../src/cli/commands/demo.js';
import { inspectCommand } from '../../src/cli/commands/inspect.js';
import { main } from '../../src/cli/main.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { writeJournalFile } from '../../src/journal.js';
import { tempWorkspace } from '../support/workspace.js';
import { capture } from './support/capture.js';
import { getWithHost } from './support/http.js';
import { recordRun } from './support/recorded-run.js';

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openServer(allowedHosts?: readonly string[]): Promise<string> {
  const { journal } = await recordRun();
  const feed = InspectorFeed.fromJournal(journal, { title: 'run.jsonl' });
  server = await startInspector(feed, { host: '0.0.0.0', ...(allowedHosts ? { allowedHosts } : {}) });
  return new URL(server.url).port;
}

describe('the Host check when bound to every interface', () => {
  it('refuses a rebinding request (another host name) with 403, bound to 0.0.0.0', async () => {
    const port = await openServer();
    const response = await getWithHost(`http://127.0.0.1:${port}/api/snapshot`, `rebind.evil.example:${port}`);
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('steps');
  });

  it('serves loopback names, IP addresses (no DNS to rebind) and the names given in allowedHosts', async () => {
    const port = await openServer(['rebind.evil.example', 'MyBox.lan']);
    const url = `http://127.0.0.1:${port}/api/snapshot`;
    for (const host of [
      'localhost',
      '127.0.0.1',
      '[::1]',
      '192.168.1.20',
      '[fe80::1]',
      'rebind.evil.example',
      'mybox.lan',
    ]) {
      expect((await getWithHost(url, `${host}:${port}`)).status, host).toBe(200);
    }
    expect((await getWithHost(url, `other.evil.example:${port}`)).status).toBe(403);
    expect((await getWithHost(url, `rebind.evil.example:1`)).status).toBe(403);
  });
});

describe('agent-harness inspect --host / --allow-host', () => {
  it('warns on stderr when binding beyond loopback, and serves an --allow-host name', async () => {
    const { journal } = await recordRun();
    const path = join(tempWorkspace(), 'run.jsonl');
    await writeJournalFile(path, journal);
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const args = [path, '--host', '0.0.0.0', '--allow-host', 'rebind.evil.example', '--allow-host', 'box.lan'];
    const serving = inspectCommand(args, out, stop.signal, err);
    const [, port = ''] = await out.line(/^inspector: http:\/\/0\.0\.0\.0:(\d+)\/\n/m);
    expect(err.text()).toMatch(/^warning: the inspector listens on 0\.0\.0\.0, beyond this machine: .*\n$/);
    const url = `http://127.0.0.1:${port}/api/snapshot`;
    expect((await getWithHost(url, `rebind.evil.example:${port}`)).status).toBe(200);
    expect((await getWithHost(url, `box.lan:${port}`)).status).toBe(200);
    expect((await getWithHost(url, `evil.example:${port}`)).status).toBe(403);
    stop.abort();
    expect(await serving).toBe(0);
  });

  it('prints no warning on loopback, and refuses an --allow-host that is not a host name (exit 2)', async () => {
    const err = capture();
    expect(await main(['inspect', 'x.jsonl', '--allow-host', 'evil.example/path'], capture(), err)).toBe(2);
    expect(err.text()).toContain("--allow-host must be a host name, got 'evil.example/path'");
    const { journal } = await recordRun();
    const path = join(tempWorkspace(), 'run.jsonl');
    await writeJournalFile(path, journal);
    const quiet = capture();
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand([path], out, stop.signal, quiet);
    await out.line(/^inspector: /m);
    stop.abort();
    expect(await serving).toBe(0);
    expect(quiet.text()).toBe('');
  });

  it('demo --inspect on 0.0.0.0 warns too, and keeps the Host check with its --allow-host names', async () => {
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const journal = join(tempWorkspace(), 'demo.jsonl');
    const args = ['--journal', journal, '--inspect', '--host', '0.0.0.0', '--allow-host', 'box.lan'];
    const running = demoCommand(args, out, stop.signal, err);
    const [, port = ''] = await out.line(/^inspector: http:\/\/0\.0\.0\.0:(\d+)\/\n/m);
    expect(err.text()).toMatch(/^warning: the inspector listens on 0\.0\.0\.0/);
    const url = `http://127.0.0.1:${port}/api/snapshot`;
    expect((await getWithHost(url, `box.lan:${port}`)).status).toBe(200);
    expect((await getWithHost(url, `rebind.evil.example:${port}`)).status).toBe(403);
    await out.line(/serving until Ctrl-C/);
    stop.abort();
    expect(await running).toBe(0);
  });
});
