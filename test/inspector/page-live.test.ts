import { createWebSocketInspector } from '@statelyai/inspect';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ScriptedClient } from '../../src/index.js';
import { InspectionFeed } from '../../src/inspector/inspection-feed.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { ScriptedTurn } from '../../src/testing/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { highlighted, launchBrowser, openInspector, screenshot } from './support/browser.js';
import { lookupTool, RECORDED_CALLS, recordedScript } from './support/recorded-run.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The recorded script, but turn 2 waits until `release()`. */
function gatedScript(): { turns: ScriptedTurn[]; release: () => void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const [first, second, ...rest] = recordedScript();
  const turns: ScriptedTurn[] = [
    first ?? [],
    async () => {
      await gate;
      return second ?? [];
    },
    ...rest,
  ];
  return { turns, release };
}

describe.skipIf(skipWithout('chromium'))('inspector page, live', () => {
  let server: InspectorServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('shows the run so far, then receives new events as they happen and follows the state', async () => {
    const { turns, release } = gatedScript();
    const { agent } = makeAgent(new ScriptedClient(turns), [lookupTool], {
      cwd: process.cwd(),
      budget: { maxTurns: 5, softLimitRatio: 0.6 },
    });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'live run');
    server = await startInspector(feed);
    const run = collect(agent.run('Look up alpha, html, fail and gamma.'));
    await new Promise<void>((resolve) => {
      const stop = feed.subscribe((steps) => {
        if (steps.some((s) => s.kind === 'turn' && s.turn === 2)) {
          stop();
          resolve();
        }
      });
    });

    const page = await openInspector(browser, server.url);
    await expect(page.locator('#mode').textContent()).resolves.toBe('live');
    await expect(page.locator('#steps li[data-kind="tool_call"]').count()).resolves.toBe(2);
    await expect(highlighted(page)).resolves.toBe('awaitingModel');
    await screenshot(page, 'inspector-live-waiting');

    release();
    await page.locator('#steps li[data-kind="answer"]').waitFor();
    const calls = await page
      .locator('#steps li[data-kind="tool_call"]')
      .evaluateAll((items) => items.map((li) => li.querySelector('.meta')?.textContent?.split(' · ')[0]));
    expect(calls).toEqual(RECORDED_CALLS);
    await expect(highlighted(page)).resolves.toBe('done');
    await expect(page.locator('#steps li[data-kind="answer"] .text').textContent()).resolves.toBe(
      'Alpha and gamma are words.',
    );
    await expect(page.locator('#steps li').count()).resolves.toBe(feed.snapshot().steps.length);
    await expect(page.locator('#totals').textContent()).resolves.toContain('4 turns · 328 tokens');
    await screenshot(page, 'inspector-live-done');
    await run;
    detach();
  });

  it('shows an XState app that connects over WebSocket (@statelyai/inspect protocol) once it connects', async () => {
    const feed = new InspectionFeed();
    const wsServer = await startInspector(feed);
    try {
      const page = await openInspector(browser, wsServer.url);
      await expect(page.locator('#diagram').textContent()).resolves.toContain('waiting for an XState app');
      const inspector = createWebSocketInspector({ url: wsServer.url.replace(/^http/, 'ws').replace(/\/$/, '') });
      const light = createMachine({
        id: 'light',
        initial: 'green',
        states: { green: { on: { NEXT: 'yellow' } }, yellow: { on: { NEXT: 'red' } }, red: {} },
      });
      const actor = createActor(light, { inspect: inspector.inspect }).start();
      actor.send({ type: 'NEXT' });
      actor.send({ type: 'NEXT' });
      await page.locator('#steps li[data-kind="transition"]').nth(1).waitFor();
      inspector.stop();
      await expect(page.locator('#title').textContent()).resolves.toBe('light');
      await expect(highlighted(page)).resolves.toBe('red');
      await page.locator('#steps li').first().click();
      await expect(highlighted(page)).resolves.toBe('green');
      await screenshot(page, 'inspector-websocket');
    } finally {
      await wsServer.close();
    }
  });
});
