import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { collect } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { launchBrowser, openInspector } from './support/browser.js';

let browser: Browser;
let server: InspectorServer;
let page: Page;

/** A summary written to break the page: markup and a bidi override. */
const HOSTILE_SUMMARY = '<img src=x onerror="window.pwned=1">read \u202Egnp.exe';

beforeAll(async () => {
  const config = new Config({
    cwd: tempWorkspace(),
    maxTurns: 10,
    context: {
      maxTokens: 400,
      strategy: 'summarise',
      client: new ScriptedClient([[StreamEvent.textDelta(HOSTILE_SUMMARY), StreamEvent.messageComplete()]]),
    },
  });
  const registry = new ToolRegistry(config).register(
    defineTool({
      name: 'read_page',
      description: 'Reads a page.',
      kind: ToolKind.READ,
      schema: z.object({ page: z.number() }),
      execute: ({ params }) => `page ${params.page}: ${'word '.repeat(120)}`,
    }),
  );
  const call = (n: number) => [
    StreamEvent.toolCallComplete({ callId: `p${n}`, name: 'read_page', arguments: { page: n } }),
    StreamEvent.messageComplete(),
  ];
  const client = new ScriptedClient([
    call(1),
    call(2),
    call(3),
    [StreamEvent.textDelta('done'), StreamEvent.messageComplete()],
  ]);
  const session = new Session(config, { client, registry });
  await collect(new Agent(config, { session }).run('read'));
  const feed = InspectorFeed.fromJournal(session.journal, { title: 'compaction.jsonl' });
  [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(skipWithout('chromium'))('inspector page with a compaction', () => {
  it('shows the compaction step with its sizes, and the summary as inert text', async () => {
    const step = page.locator('#steps li[data-kind="compaction"]');
    await expect(step.count()).resolves.toBe(1);
    await expect(step.textContent()).resolves.toMatch(/context compacted \(summarise\): \d+ → \d+ tokens/);
    const text = (await step.textContent()) ?? '';
    expect(text).toContain('replaced by a summary');
    expect(text).toContain('<img src=x');
    // A browser does not interpret escape sequences; a bidi override would reorder the line, so it shows as a marker.
    expect(text).not.toContain('\u202E');
    expect(text).toContain('⟨U+202E⟩gnp.exe');
    await expect(page.locator('#steps img').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as { pwned?: number }).pwned)).resolves.toBeUndefined();
  });

  it('draws the compacting state', async () => {
    await expect(page.locator('#diagram g.state[data-state="compacting"]').count()).resolves.toBe(1);
  });
});
