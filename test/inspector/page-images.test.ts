import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { base64Bytes } from '../../src/core/content-parts.js';
import type { JournalEntry } from '../../src/core/journal-entry.js';
import { defineTool, ScriptedClient, ToolKind, ToolResult } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { launchBrowser, openInspector } from './support/browser.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG_BYTES = Buffer.from(PNG, 'base64').length;
const base64 = (text: string): string => Buffer.from(text).toString('base64');

const SCRIPT = '<script>window.pwned=5</script>';
const NOT_BASE64 = 'AAAA" onerror="window.pwned=6';

/**
 * A user message written to break the page (a journal is untrusted: this one skips the checks a
 * session makes): markup in a media type and a file name, an SVG with a script, a javascript:
 * URL, and data that is not base64.
 */
const HOSTILE: JournalEntry = {
  type: 'user_message',
  content: [
    { type: 'text', text: 'hostile parts' },
    { type: 'image', mediaType: 'image/png" onerror="window.pwned=1', data: PNG },
    { type: 'image', mediaType: 'image/svg+xml', data: base64('<svg onload="window.pwned=2"></svg>') },
    { type: 'image', mediaType: 'image/png', url: 'javascript:window.pwned=3' },
    {
      type: 'file',
      mediaType: 'text/html',
      name: '<img src=x onerror="window.pwned=4">',
      data: base64(SCRIPT),
    },
    { type: 'image', mediaType: 'image/png', data: NOT_BASE64 },
  ],
};

let browser: Browser;
let server: InspectorServer;
let page: Page;
let steps: readonly TimelineStep[];

beforeAll(async () => {
  const screenshot = defineTool({
    name: 'screenshot',
    description: 'Takes a screenshot.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: () =>
      ToolResult.content([
        { type: 'text', text: 'the screen' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ]),
  });
  const client = new ScriptedClient([toolTurn('s1', 'screenshot', {}), textTurn('a pixel')]);
  const { agent, session } = makeAgent(client, [() => screenshot], { cwd: tempWorkspace() });
  await collect(
    agent.run([
      { type: 'text', text: 'what is this?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'file', mediaType: 'application/pdf', data: base64('%PDF-1.4\n'), name: 'paper.pdf' },
    ]),
  );
  const feed = InspectorFeed.fromJournal([...session.journal, HOSTILE], { title: 'images.jsonl' });
  steps = feed.snapshot().steps;
  [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the timeline of a session with images', () => {
  it('gives a user message and a tool result their images (with data) and files (named, sized)', () => {
    const users = steps.filter((step) => step.kind === 'user');
    expect(users[0]?.attachments).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: PNG_BYTES, data: PNG },
      { type: 'file', mediaType: 'application/pdf', bytes: 9, name: 'paper.pdf' },
    ]);
    const tool = steps.find((step) => step.kind === 'tool_call')?.tool;
    expect(tool?.result).toContain('the screen');
    expect(tool?.attachments).toEqual([{ type: 'image', mediaType: 'image/png', bytes: PNG_BYTES, data: PNG }]);
  });

  it('keeps data only for an allow-listed image type with base64 data; a URL only as text', () => {
    const hostile = steps.filter((step) => step.kind === 'user')[1]?.attachments ?? [];
    expect(hostile).toHaveLength(5);
    expect(hostile.every((part) => part.data === undefined)).toBe(true);
    expect(hostile[2]).toEqual({ type: 'image', mediaType: 'image/png', url: 'javascript:window.pwned=3' });
  });
});

describe.skipIf(skipWithout('chromium'))('the inspector page of a session with images', () => {
  it('draws the journaled images from data: URLs (allowed by the page’s CSP), files as labelled notes', async () => {
    const images = page.locator('#steps img');
    await expect(images.count()).resolves.toBe(2);
    await expect(images.evaluateAll((all) => all.map((img) => img.getAttribute('src')))).resolves.toEqual([
      `data:image/png;base64,${PNG}`,
      `data:image/png;base64,${PNG}`,
    ]);
    // Decoded, so not blocked: a CSP-refused or broken image has no natural size.
    await expect(
      images.evaluateAll((all) => all.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth)),
    ).resolves.toEqual([1, 1]);
    const labels = page.locator('#steps li[data-kind="user"]').first().locator('figcaption');
    await expect(labels.allTextContents()).resolves.toEqual([
      `image · image/png · ${PNG_BYTES} bytes`,
      'file paper.pdf · application/pdf · 9 bytes',
    ]);
  });

  it('shows a hostile part’s markup as text: nothing injected, no URL loaded, no image drawn from it', async () => {
    const hostile = page.locator('#steps li[data-kind="user"]').nth(1);
    await expect(hostile.locator('img').count()).resolves.toBe(0);
    await expect(hostile.locator('figcaption').allTextContents()).resolves.toEqual([
      `image · image/png" onerror="window.pwned=1 · ${PNG_BYTES} bytes`,
      'image · image/svg+xml · 35 bytes',
      'image · image/png · at javascript:window.pwned=3 (not loaded)',
      `file <img src=x onerror="window.pwned=4"> · text/html · ${SCRIPT.length} bytes`,
      `image · image/png · ${base64Bytes(NOT_BASE64)} bytes`,
    ]);
    await expect(page.locator('[onerror], [onload], a[href^="javascript"]').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(1); // the page's own
    await expect(page.evaluate(() => (globalThis as { pwned?: number }).pwned)).resolves.toBeUndefined();
  });

  it('shows the images in the detail panel of the selected step', async () => {
    await page.locator('#steps li[data-kind="user"] .title').first().click();
    await expect(page.locator('#detail img').count()).resolves.toBe(1);
    await page.locator('#steps li[data-kind="tool_call"] .title').first().click();
    await expect(page.locator('#detail img').getAttribute('src')).resolves.toBe(`data:image/png;base64,${PNG}`);
  });
});
