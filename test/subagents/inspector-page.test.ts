import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCommand } from '../../src/cli/commands/inspect.js';
import { type JournalStore, openStore } from '../../src/index.js';
import { InspectorFeed, type InspectorSnapshot } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector.js';
import { readSessionTree } from '../../src/subagents.js';
import { launchBrowser, openInspector } from '../inspector/support/browser.js';
import { capture } from '../inspector/support/capture.js';
import { skipWithout } from '../support/required-tools.js';
import { delegateInto } from './support/delegation.js';

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m;
const STORE = 'memory:subagents-inspector';

let store: JournalStore;
beforeAll(async () => {
  store = await openStore(STORE);
  await delegateInto(store);
});
afterAll(() => store?.close());

const childrenOf = (steps: readonly TimelineStep[]) =>
  steps.filter((step) => step.kind === 'tool_call').map((step) => step.tool?.children ?? []);

describe('inspecting a stored delegation', () => {
  it('`inspect <id> --store` serves the lead with each child timeline nested under its call', async () => {
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand(['lead', '--store', STORE], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    const snapshot = (await (await fetch(new URL('api/snapshot', url))).json()) as InspectorSnapshot;
    stop.abort();
    expect(await serving).toBe(0);
    const [first, second] = childrenOf(snapshot.steps);
    expect(first?.at(-1)?.text).toBe('research 1: analysis 1: effect 1 done');
    expect(second?.at(-1)?.text).toBe('research 2: analysis 2: effect 2 done');
    const [grandchild] = childrenOf(first ?? []);
    expect(grandchild?.at(-1)?.text).toBe('analysis 1: effect 1 done');
  });

  it('the page shows each child run as an expandable timeline under its call, as deep as agents nest', async (ctx) => {
    ctx.skip(skipWithout('chromium'), 'no Chromium');
    const tree = await readSessionTree(store, 'lead');
    const feed = InspectorFeed.fromJournal(tree.journals.get('lead') ?? [], {
      title: 'lead',
      childJournal: (id) => tree.journals.get(id),
    });
    let browser: Browser | undefined;
    let server: InspectorServer | undefined;
    try {
      [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
      const page = await openInspector(browser, server.url);
      const runs = page.locator('#steps > li[data-kind="tool_call"] > details.child-run');
      await expect(runs.count()).resolves.toBe(2);
      await expect(runs.first().locator(':scope > summary').textContent()).resolves.toMatch(
        /^child agent · session lead\.t1\.r1 · \d+ steps$/,
      );
      await runs.first().locator(':scope > summary').click();
      const nested = runs.first().locator('details.child-run');
      await expect(nested.count()).resolves.toBe(1);
      await expect(nested.locator(':scope > summary').textContent()).resolves.toContain('session lead.t1.r1.t1.a1');
      const answers = await runs.first().locator(':scope > ol > li[data-kind="answer"] .text').allTextContents();
      expect(answers).toEqual(['research 1: analysis 1: effect 1 done']);
    } finally {
      await browser?.close();
      await server?.close();
    }
  }, 60_000);
});
