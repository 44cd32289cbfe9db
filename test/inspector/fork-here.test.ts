import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inspectCommand } from '../../src/cli/commands/inspect.js';
import { openStore } from '../../src/index.js';
import { fromLoopback } from '../../src/inspector/fork-route.js';
import type { ServedSnapshot } from '../../src/inspector/inspector-server.js';
import { writeJournalFile } from '../../src/journal.js';
import type { StoredEntry } from '../../src/stores/index.js';
import { skipWithout } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { launchBrowser, openInspector, screenshot } from './support/browser.js';
import { capture } from './support/capture.js';
import { recordRun } from './support/recorded-run.js';

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m;

async function snapshotAt(url: string): Promise<ServedSnapshot> {
  return (await (await fetch(new URL('api/snapshot', url))).json()) as ServedSnapshot;
}

/** A POST with any headers (fetch sets Origin itself only in a browser, and not Host). */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{
  status: number;
  body: { id?: string; at?: number; url?: string; error?: { reason: string; message: string } };
}> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('api/fork', url), { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const json = res.headers['content-type'] === 'application/json';
        resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : {} });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A sqlite store holding the recorded run as session `s1` (with a model and its rates). */
async function storedRun(): Promise<{ url: string; length: number }> {
  const { journal } = await recordRun();
  const url = `sqlite:${join(tempWorkspace(), 'sessions.db')}`;
  const store = await openStore(url);
  const writer = await store.openWriter('s1', {
    meta: { journalVersion: '2', model: 'm-1', inputRatePer1k: '1', outputRatePer1k: '2' },
  });
  await writer.append(journal as unknown as StoredEntry[]);
  await writer.close();
  await store.close();
  return { url, length: journal.length };
}

/** Serves `inspect s1 --store url` until the test ends. */
async function inspectStored(url: string): Promise<{ page: string; stop: () => Promise<number> }> {
  const out = capture();
  const stop = new AbortController();
  const serving = inspectCommand(['s1', '--store', url], out, stop.signal);
  const [, page = ''] = await out.line(URL_LINE);
  return {
    page,
    stop: () => {
      stop.abort();
      return serving;
    },
  };
}

let stops: (() => Promise<number>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('inspect ID: "fork here" at the HTTP level', () => {
  it('gives each step its entry count and the page a token; POST /api/fork makes the fork and serves it', async () => {
    const { url, length } = await storedRun();
    const { page, stop } = await inspectStored(url);
    stops.push(stop);
    const snapshot = await snapshotAt(page);
    const token = snapshot.fork?.token ?? '';
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(snapshot.steps[0]?.entries).toBe(1);
    expect(snapshot.steps.at(-1)?.entries).toBe(length);
    const tool = snapshot.steps.find((step) => step.kind === 'tool_call');
    const at = tool?.entries ?? 0;

    const origin = page.replace(/\/$/, '');
    const answer = await post(page, JSON.stringify({ at }), {
      origin,
      'content-type': 'application/json',
      'x-agent-harness-token': token,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ at, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) });
    const id = answer.body.id ?? '';
    const store = await openStore(url);
    try {
      const [original, fork] = await Promise.all([store.read('s1'), store.read(id)]);
      expect(fork.entries).toEqual(original.entries.slice(0, at));
      expect(original.entries).toHaveLength(length); // untouched
      expect(fork.meta).toMatchObject({ model: 'm-1', inputRatePer1k: '1', outputRatePer1k: '2' });
    } finally {
      await store.close();
    }
    // The fork has a page of its own, offering "fork here" in turn.
    const forkPage = await snapshotAt(answer.body.url ?? '');
    expect(forkPage.title).toBe(`session ${id} (m-1)`);
    expect(forkPage.steps.at(-1)?.entries).toBe(at);
    expect(forkPage.fork?.token).not.toBe(token);
    expect(await stop()).toBe(0);
    stops = [];
    await expect(fetch(answer.body.url ?? '')).rejects.toThrow(); // closed with the first page
  });

  it('refuses a request without the token, of another origin, not JSON, too big, or past the end', async () => {
    const { url, length } = await storedRun();
    const { page, stop } = await inspectStored(url);
    stops.push(stop);
    const token = (await snapshotAt(page)).fork?.token ?? '';
    const origin = page.replace(/\/$/, '');
    const good = { origin, 'content-type': 'application/json', 'x-agent-harness-token': token };
    const body = JSON.stringify({ at: 1 });
    const { origin: _origin, ...noOrigin } = good;
    const cases: [
      string,
      Promise<{ status: number; body: { error?: { reason: string; message: string } } }>,
      number,
    ][] = [
      ['no token', post(page, body, { ...good, 'x-agent-harness-token': '' }), 403],
      ['a wrong token', post(page, body, { ...good, 'x-agent-harness-token': `${token.slice(1)}x` }), 403],
      ['no Origin', post(page, body, noOrigin), 403],
      ['another origin', post(page, body, { ...good, origin: 'http://evil.example' }), 403],
      ['another Host', post(page, body, { ...good, host: 'rebind.evil.example' }), 403],
      ['a GET', post(page, '', good, 'GET'), 405],
      ['text/plain', post(page, body, { ...good, 'content-type': 'text/plain' }), 415],
      ['a body over 1 KiB', post(page, JSON.stringify({ at: 1, pad: 'x'.repeat(2000) }), good), 413],
      ['not JSON', post(page, '{at:1', good), 400],
      ['a negative at', post(page, JSON.stringify({ at: -1 }), good), 400],
      ['a fractional at', post(page, JSON.stringify({ at: 1.5 }), good), 400],
    ];
    for (const [what, answer, status] of cases) expect((await answer).status, what).toBe(status);
    const past = await post(page, JSON.stringify({ at: length + 1 }), good);
    expect(past).toMatchObject({
      status: 400,
      body: {
        error: {
          reason: 'invalid_argument',
          message: `at ${length + 1} is past the end of session 's1' (${length} entries)`,
        },
      },
    });
    const store = await openStore(url);
    expect((await store.list()).map((summary) => summary.id)).toEqual(['s1']); // nothing was forked
    await store.close();
  });

  it('is not offered for a journal file: no token, and no endpoint', async () => {
    const { journal } = await recordRun();
    const path = join(tempWorkspace(), 'run.jsonl');
    await writeJournalFile(path, journal);
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand([path], out, stop.signal);
    const [, page = ''] = await out.line(URL_LINE);
    expect((await snapshotAt(page)).fork).toBeUndefined();
    const answer = await post(page, '{"at":1}', {
      origin: page.replace(/\/$/, ''),
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(405);
    stop.abort();
    expect(await serving).toBe(0);
  });

  it('serves forks to loopback peers only', () => {
    const peer = (remoteAddress: string) => ({ socket: { remoteAddress } }) as never;
    expect(fromLoopback(peer('127.0.0.1'))).toBe(true);
    expect(fromLoopback(peer('::ffff:127.0.0.1'))).toBe(true);
    expect(fromLoopback(peer('::1'))).toBe(true);
    expect(fromLoopback(peer('192.168.1.20'))).toBe(false);
    expect(fromLoopback(peer('::ffff:10.0.0.1'))).toBe(false);
  });
});

describe.skipIf(skipWithout('chromium'))('inspect ID: "fork here" on the page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('numbers each step with its journal entry count, the N of fork --at N, up to the session length', async () => {
    const { url, length } = await storedRun();
    const { page: pageUrl, stop } = await inspectStored(url);
    stops.push(stop);
    const steps = (await snapshotAt(pageUrl)).steps;
    const page = await openInspector(browser, pageUrl);
    const shown = await page.locator('#steps > li > .head > .idx').allTextContents();
    expect(shown).toEqual(steps.map((step) => String(step.entries)));
    expect(shown.at(-1)).toBe(String(length));
    const target = steps.find((step) => step.kind === 'tool_call');
    await page.locator(`#steps li[data-index="${target?.index}"]`).click();
    await expect(page.locator('#detail .detail-title').textContent()).resolves.toContain(
      `fork --at ${target?.entries} keeps up to here`,
    );
  });

  it("a step's button forks the session up to that step and links the fork's page", async () => {
    const { url } = await storedRun();
    const { page: pageUrl, stop } = await inspectStored(url);
    stops.push(stop);
    const steps = (await snapshotAt(pageUrl)).steps;
    const page = await openInspector(browser, pageUrl);
    const target = steps.find((step) => step.kind === 'tool_call');
    await page.locator(`#steps li[data-index="${target?.index}"]`).click();
    const button = page.locator('#detail button.fork-here');
    await expect(button.getAttribute('title')).resolves.toContain(`first ${target?.entries} journal entries`);
    await button.click();
    await page.locator('#detail .fork-done').waitFor();
    const text = (await page.locator('#detail .fork-done').textContent()) ?? '';
    const id = /forked into session (\S+)/.exec(text)?.[1] ?? '';
    await expect(page.locator('#detail .fork-command').textContent()).resolves.toContain(`agent-harness resume ${id}`);
    const href = (await page.locator('#detail a.fork-open').getAttribute('href')) ?? '';
    await screenshot(page, 'inspector-fork-here');
    const store = await openStore(url);
    try {
      expect((await store.read(id)).entries).toHaveLength(target?.entries ?? -1);
    } finally {
      await store.close();
    }
    const fork = await openInspector(browser, href);
    await expect(fork.locator('#title').textContent()).resolves.toBe(`session ${id} (m-1)`);
  });
});
