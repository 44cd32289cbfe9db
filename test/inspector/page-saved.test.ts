import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { skipWithout } from '../support/required-tools.js';
import { highlighted, launchBrowser, openInspector, screenshot } from './support/browser.js';
import { HOSTILE_OUTPUT_SHOWN, RECORDED_CALLS, recordRun } from './support/recorded-run.js';

let browser: Browser;
let server: InspectorServer;
let page: Page;
let steps: readonly TimelineStep[];

beforeAll(async () => {
  const { journal, timings } = await recordRun();
  const feed = InspectorFeed.fromJournal(journal, { title: 'recorded-run.jsonl', timings });
  steps = feed.snapshot().steps;
  [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(skipWithout('chromium'))('inspector page for a saved journal', () => {
  it('draws every state of the machine and lists every step', async () => {
    const states = await page
      .locator('#diagram g.state')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')));
    expect(states).toEqual([
      'awaitingModel',
      'executingTools',
      'awaitingApproval',
      'observing',
      'budgetCheck',
      'compacting',
      'guardingOutput',
      'done',
      'error',
    ]);
    await expect(page.locator('#steps li').count()).resolves.toBe(steps.length);
    await expect(page.locator('#mode').textContent()).resolves.toBe('saved');
  });

  it('lists every tool call with its arguments, result, success and duration', async () => {
    const calls = page.locator('#steps li[data-kind="tool_call"]');
    await expect(calls.count()).resolves.toBe(RECORDED_CALLS.length);
    const rows = await calls.evaluateAll((items) =>
      items.map((li) => ({
        args: li.querySelector('.tool-args')?.textContent,
        result: li.querySelector('.tool-result')?.textContent,
        status: li.querySelector('.tool-status')?.textContent,
        meta: li.querySelector('.meta')?.textContent,
      })),
    );
    expect(rows.map((r) => r.args)).toEqual(['{"q":"alpha"}', '{"q":"html"}', '{"q":"fail"}', '{"q":"gamma"}']);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'ok', 'error', 'ok']);
    expect(rows[2]?.result).toBe("Error: no entry for 'fail'");
    for (const [i, row] of rows.entries())
      expect(row.meta).toMatch(new RegExp(`^${RECORDED_CALLS[i]} · \\d+\\.\\d ms$`));
  });

  it('renders hostile tool output as text: no <script> or <img onerror> runs or even exists', async () => {
    const html = page.locator('#steps li[data-kind="tool_call"]').nth(1);
    await expect(html.locator('.tool-result').textContent()).resolves.toBe(HOSTILE_OUTPUT_SHOWN);
    await html.click();
    await expect(page.locator('#detail .tool-result').textContent()).resolves.toBe(HOSTILE_OUTPUT_SHOWN);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(1); // the page's own
    await page.waitForLoadState('networkidle');
    await expect(page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
    const text = page.locator('#steps li[data-kind="model_text"]').first().locator('.text');
    await expect(text.textContent()).resolves.toBe('Let me <b>look</b> these up.');
    await screenshot(page, 'inspector-saved-tool-call');
  });

  it('stepping through the timeline moves the highlighted state, step by step', async () => {
    await page.keyboard.press('Home');
    const seen: (string | null)[] = [await highlighted(page)];
    for (let i = 1; i < steps.length; i++) {
      await page.locator('#next').click();
      seen.push(await highlighted(page));
    }
    expect(seen).toEqual(steps.map((s) => s.state));
    expect(seen.at(-1)).toBe('done');
    await expect(page.locator('#position').textContent()).resolves.toBe(`step ${steps.length} of ${steps.length}`);
    await page.keyboard.press('ArrowLeft');
    await expect(highlighted(page)).resolves.toBe(steps.at(-2)?.state);
  });

  it('scrubbing to a tool call highlights executingTools and selects that call', async () => {
    const toolIndex = steps.findIndex((s) => s.kind === 'tool_call' && s.tool?.callId === 'c3');
    await page.locator('#scrub').fill(String(toolIndex));
    await expect(highlighted(page)).resolves.toBe('executingTools');
    await expect(page.locator('#steps li.selected').getAttribute('data-step-id')).resolves.toBe(steps[toolIndex]?.id);
    const budget = steps.findIndex((s) => s.kind === 'budget_warning');
    await page.locator(`#steps li[data-index="${budget}"]`).click();
    await expect(highlighted(page)).resolves.toBe('budgetCheck');
    await expect(page.locator('#detail').textContent()).resolves.toContain('208 tokens (180 in / 28 out)');
  });

  it('highlights the edge of a transition step', async () => {
    const index = steps.findIndex((s) => s.kind === 'transition' && s.state === 'observing');
    await page.locator(`#steps li[data-index="${index}"]`).click();
    const taken = await page
      .locator('#diagram path.edge.taken')
      .evaluateAll((ps) => ps.map((p) => `${p.getAttribute('data-from')}->${p.getAttribute('data-to')}`));
    expect(taken).toEqual(['executingTools->observing']);
    await screenshot(page, 'inspector-saved-transition');
  });
});
