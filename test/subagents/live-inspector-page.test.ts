import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Agent, Config } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { highlighted, launchBrowser, openInspector, screenshot } from '../inspector/support/browser.js';
import { skipWithout } from '../support/required-tools.js';
import { drain } from '../support/runs.js';
import { delegationClients, leadRegistry } from './support/delegation.js';

describe.skipIf(skipWithout('chromium'))('the live inspector page of a delegation', () => {
  it('draws the child machines under executingTools, and each child run grows live under its call, kept expanded', async () => {
    const clients = delegationClients();
    let reached: () => void = () => {};
    const reachedItem2 = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const registry = leadRegistry(clients, async (n) => {
      if (n !== 2) return;
      reached();
      await gate; // item 2's effect waits, three levels down, while the page is looked at
    });
    const agent = new Agent(new Config(), { client: clients.lead, registry });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'lead');
    let browser: Browser | undefined;
    let server: InspectorServer | undefined;
    try {
      [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
      const run = drain(agent.run('write the report'));
      await reachedItem2;
      const page = await openInspector(browser, server.url);

      // The diagram: the researcher's machine framed under the lead's, the analyst's inside it.
      const researcher = page.locator('#diagram > g.child-machine[data-agent="researcher"]');
      await expect(researcher.count()).resolves.toBe(1);
      await expect(researcher.locator(':scope > text.child-title').textContent()).resolves.toBe(
        'researcher · child agent, depth 1 · spawned by runTool in executingTools',
      );
      await expect(researcher.locator('g.child-machine[data-agent="analyst"]').count()).resolves.toBe(1);
      await expect(researcher.locator(':scope > g > g.child-state').count()).resolves.toBe(feed.graph.states.length);
      // Only the lead's own states are highlighted.
      await expect(page.locator('#diagram g.state').count()).resolves.toBe(feed.graph.states.length);
      await expect(highlighted(page)).resolves.toBe('executingTools');

      // The timeline: item 2's researcher is running, its analyst and effect too.
      const runs = page.locator('#steps > li[data-kind="tool_call"] > details.child-run');
      await expect(runs.count()).resolves.toBe(2);
      const second = runs.nth(1);
      await second.locator(':scope > summary').click();
      await expect(second.locator(':scope > summary').textContent()).resolves.toMatch(
        /^child agent · session agent\.t2\.r2 · \d+ steps$/,
      );
      const nested = second.locator('details.child-run');
      await expect(nested.locator(':scope > summary').textContent()).resolves.toContain('session agent.t2.r2.t1.a1');
      await nested.locator(':scope > summary').click();
      await expect(nested.locator('li[data-kind="tool_call"] .tool-status').textContent()).resolves.toBe('running');
      await screenshot(page, 'inspector-live-delegation');

      release();
      await page.locator('#steps > li[data-kind="answer"]').waitFor();
      // Updated live as the children finished, and still expanded.
      const expanded = page.locator('#steps > li[data-kind="tool_call"] > details.child-run').nth(1);
      await expect(expanded.evaluate((details) => details.hasAttribute('open'))).resolves.toBe(true);
      await expect(expanded.locator(':scope > ol > li[data-kind="answer"] .text').textContent()).resolves.toBe(
        'research 2: analysis 2: effect 2 done',
      );
      await expect(
        expanded.locator('details.child-run > ol > li[data-kind="tool_call"] .tool-status').textContent(),
      ).resolves.toBe('ok');
      await run;
    } finally {
      release();
      detach();
      await browser?.close();
      await server?.close();
    }
  }, 60_000);
});
