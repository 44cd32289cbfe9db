import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DivergenceView, divergenceSource } from '../../src/inspector/divergence-view.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { skipWithout } from '../support/required-tools.js';
import { highlighted, launchBrowser, openInspector, screenshot } from './support/browser.js';
import { divergedReplay, HOSTILE_RESULT } from './support/diverged-replay.js';

let browser: Browser;
let server: InspectorServer;
let page: Page;
let view: DivergenceView;

beforeAll(async () => {
  const run = await divergedReplay();
  const found = run.report.divergence;
  if (found === undefined) throw new Error('the replay did not diverge');
  const point = { entryIndex: found.step.entryIndex, kind: found.kind, message: found.message, diff: found.diff };
  const source = divergenceSource('replay of lookup', run.cassette.journal, run.agent.session.journal, point);
  const divergence = source.snapshot().divergence;
  if (divergence === undefined) throw new Error('the snapshot holds no divergence');
  view = divergence;
  [browser, server] = await Promise.all([launchBrowser(), startInspector(source)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The ids of the highlighted steps in a column. */
const diverged = (list: string) =>
  page.locator(`#${list} li.diverged`).evaluateAll((items) => items.map((li) => li.getAttribute('data-step-id')));

describe.skipIf(skipWithout('chromium'))('inspector page for a replay divergence', () => {
  it('shows the recorded and the new timeline side by side, each highlighting the divergence step', async () => {
    await expect(page.locator('#divergence').isVisible()).resolves.toBe(true);
    await expect(page.locator('#recorded-steps li.step').count()).resolves.toBe(view.recorded.steps.length);
    await expect(page.locator('#replayed-steps li.step').count()).resolves.toBe(view.replayed.steps.length);
    const recorded = view.recorded.steps[view.recorded.highlight];
    const replayed = view.replayed.steps[view.replayed.highlight];
    await expect(diverged('recorded-steps')).resolves.toEqual([recorded?.id]);
    await expect(diverged('replayed-steps')).resolves.toEqual([replayed?.id]);
    const results = await page
      .locator('.divergence li.diverged .tool-result')
      .evaluateAll((pres) => pres.map((pre) => pre.textContent));
    expect(results).toEqual(['definition of cat', HOSTILE_RESULT]);
    const left = await page.locator('.column.recorded').boundingBox();
    const right = await page.locator('.column.replayed').boundingBox();
    expect(left && right && left.x + left.width <= right.x).toBe(true);
    // The new run's step is the one selected on the machine.
    await expect(highlighted(page)).resolves.toBe('executingTools');
    await expect(page.locator('#steps li.selected').getAttribute('data-step-id')).resolves.toBe(replayed?.id);
  });

  it('scrolls each column to its highlighted step', async () => {
    for (const list of ['recorded-steps', 'replayed-steps']) {
      const inView = await page.locator(`#${list}`).evaluate((ol) => {
        const item = ol.querySelector('li.diverged');
        if (!item) return false;
        const box = ol.getBoundingClientRect();
        const at = item.getBoundingClientRect();
        return at.top >= box.top && at.top < box.bottom;
      });
      expect(inView, list).toBe(true);
    }
  });

  it('shows the divergence and its diff as text: the hostile result neither runs nor becomes an element', async () => {
    await expect(page.locator('#divergence-head').textContent()).resolves.toBe(
      `tool result diverged at journal entry ${view.divergence.entryIndex}: ${view.divergence.message}`,
    );
    await expect(page.locator('#divergence-diff').textContent()).resolves.toBe(view.divergence.diff);
    expect(view.divergence.diff).toContain('<img src=x onerror=');
    await page.waitForLoadState('networkidle');
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(1); // the page's own
    await expect(page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
    await screenshot(page, 'inspector-divergence');
  });
});
