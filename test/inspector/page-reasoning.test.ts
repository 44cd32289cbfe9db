import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ReasoningContent } from '../../src/core/messages.js';
import { Agent, Config, defineTool, ScriptedClient, StreamEvent, ToolKind, ToolRegistry } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { collect } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { launchBrowser, openInspector } from './support/browser.js';

/** A reasoning summary written to break the page: markup and a bidi override. */
const HOSTILE_SUMMARY = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>plan \u202Egnp.exe';

const TOOL_TURN: ReasoningContent[] = [
  { type: 'reasoning', provider: 'openai', summary: HOSTILE_SUMMARY, encrypted: 'enc-1', id: 'rs_1' },
  { type: 'reasoning', provider: 'openai', encrypted: 'enc-2', id: 'rs_2' },
];
const ANSWER_TURN: ReasoningContent[] = [
  { type: 'reasoning', provider: 'anthropic', text: 'the page says 1', signature: 'sig' },
  { type: 'redacted_reasoning', provider: 'anthropic', data: 'opaque' },
];

let browser: Browser;
let server: InspectorServer;
let page: Page;
let steps: readonly TimelineStep[];

beforeAll(async () => {
  const config = new Config({ cwd: tempWorkspace() });
  const tools = new ToolRegistry(config).register(
    defineTool({
      name: 'read_page',
      description: 'Reads a page.',
      kind: ToolKind.READ,
      schema: z.object({ page: z.number() }),
      execute: ({ params }) => `page ${params.page}`,
    }),
  );
  const client = new ScriptedClient([
    [
      ...TOOL_TURN.map((part) => StreamEvent.reasoningComplete(part)),
      StreamEvent.toolCallComplete({ callId: 'p1', name: 'read_page', arguments: { page: 1 } }),
      StreamEvent.messageComplete(),
    ],
    [
      ...ANSWER_TURN.map((part) => StreamEvent.reasoningComplete(part)),
      StreamEvent.textDelta('one'),
      StreamEvent.messageComplete(),
    ],
  ]);
  const agent = new Agent(config, { client, tools });
  await collect(agent.run('read'));
  const feed = InspectorFeed.fromJournal(agent.session.journal, { title: 'reasoning.jsonl' });
  steps = feed.snapshot().steps;
  [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the timeline of a reasoning session', () => {
  it('puts each turn’s reasoning on its text step: the summary, else the text; redacted and encrypted parts named', () => {
    expect(steps.find((s) => s.kind === 'model_text')?.reasoning).toEqual([
      { provider: 'openai', shows: 'summary', text: HOSTILE_SUMMARY },
      { provider: 'openai', shows: 'encrypted', text: '' },
    ]);
    expect(steps.find((s) => s.kind === 'answer')?.reasoning).toEqual([
      { provider: 'anthropic', shows: 'text', text: 'the page says 1' },
      { provider: 'anthropic', shows: 'redacted', text: '' },
    ]);
    // Signatures, encrypted content and redacted data are not the timeline's to show.
    expect(JSON.stringify(steps)).not.toMatch(/enc-1|"sig"|opaque/);
  });
});

describe.skipIf(skipWithout('chromium'))('the inspector page of a reasoning session', () => {
  it('folds each turn’s reasoning (closed until opened), with hostile text inert', async () => {
    const folds = page.locator('#steps details.reasoning');
    await expect(folds.count()).resolves.toBe(2);
    await expect(folds.evaluateAll((all) => all.map((d) => d.hasAttribute('open')))).resolves.toEqual([false, false]);
    await expect(folds.first().locator('summary').textContent()).resolves.toBe('reasoning · 2 parts');
    await expect(folds.first().locator('summary.reasoning-head').isVisible()).resolves.toBe(true);
    await expect(folds.first().locator('pre').first().isVisible()).resolves.toBe(false);
    await folds.first().locator('summary').click();
    await expect(folds.first().locator('pre').first().isVisible()).resolves.toBe(true);
    await expect(folds.first().locator('pre').allTextContents()).resolves.toEqual([
      HOSTILE_SUMMARY.replace('\u202E', '⟨U+202E⟩'),
      'encrypted',
    ]);
    await expect(folds.nth(1).locator('pre').allTextContents()).resolves.toEqual(['the page says 1', 'redacted']);
    await expect(folds.nth(1).locator('.label').allTextContents()).resolves.toEqual([
      'anthropic · text',
      'anthropic · redacted',
    ]);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(1); // the page's own
    await expect(page.evaluate(() => (globalThis as { pwned?: number }).pwned)).resolves.toBeUndefined();
  });

  it('shows the fold in the detail panel of the selected step, closed', async () => {
    await page.locator('#steps li[data-kind="answer"] .title').click();
    const fold = page.locator('#detail details.reasoning');
    await expect(fold.count()).resolves.toBe(1);
    await expect(fold.evaluate((d) => d.hasAttribute('open'))).resolves.toBe(false);
  });
});
