import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../src/core/model-client.js';
import { ScriptedClient, StreamEvent } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { startInspector } from '../../src/inspector/inspector-server.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { launchBrowser, openInspector } from './support/browser.js';

/** Streamed reasoning written to break the page: markup and a bidi override. */
const HOSTILE_PIECES = ['<img src=x onerror="window.pwned=1">', 'plan \u202Egnp.exe'];

const FINISHED = { type: 'reasoning', provider: 'anthropic', text: HOSTILE_PIECES.join(''), signature: 'sig' } as const;

/** A promise and the function that settles it. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

/**
 * A model that streams the first piece of its reasoning, waits for `more()`, streams the second,
 * waits for `finish()`, then finishes the part and answers.
 */
function gatedThinker(): { client: ModelClient; more: () => void; finish: () => void } {
  const second = gate();
  const last = gate();
  const client: ModelClient = {
    provider: 'anthropic',
    async *chatCompletion() {
      yield StreamEvent.reasoningDelta(HOSTILE_PIECES[0] as string);
      await second.passed;
      yield StreamEvent.reasoningDelta(HOSTILE_PIECES[1] as string);
      await last.passed;
      yield StreamEvent.reasoningComplete(FINISHED);
      yield StreamEvent.textDelta('done');
      yield StreamEvent.messageComplete();
    },
  };
  return { client, more: second.open, finish: last.open };
}

describe('InspectorFeed.ofAgent (live): streamed reasoning', () => {
  it('shows reasoning on its turn as it streams, a burst as one update, until the turn’s finished parts replace it', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `r${i} `);
    const turn = [
      ...pieces.map((piece) => StreamEvent.reasoningDelta(piece)),
      StreamEvent.reasoningComplete({
        type: 'reasoning',
        provider: 'anthropic',
        text: pieces.join(''),
        signature: 's',
      }),
      StreamEvent.textDelta('answer'),
      StreamEvent.messageComplete(),
    ];
    const { agent } = makeAgent(new ScriptedClient([turn]), [], { cwd: process.cwd() });
    const { feed, detach } = InspectorFeed.ofAgent(agent);
    const updates: string[] = [];
    feed.subscribe((steps) => {
      for (const step of steps)
        if (step.kind === 'turn' && step.streamedReasoning) updates.push(step.streamedReasoning);
    });
    await collect(agent.run('go'));
    detach();
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.length).toBeLessThan(pieces.length);
    expect(updates.at(-1)).toBe(pieces.join(''));
    const steps = feed.snapshot().steps;
    expect(steps.find((s) => s.kind === 'turn')).not.toHaveProperty('streamedReasoning');
    expect(steps.at(-1)).toMatchObject({
      kind: 'answer',
      reasoning: [{ provider: 'anthropic', shows: 'text', text: pieces.join('') }],
    });
  });
});

describe.skipIf(skipWithout('chromium'))('inspector page, live: streamed reasoning', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('folds the reasoning streamed so far on the turn, inert, kept open as it grows; the answer’s fold replaces it', async () => {
    const { client, more, finish } = gatedThinker();
    const { agent } = makeAgent(client, [], { cwd: process.cwd() });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'live reasoning');
    const server = await startInspector(feed);
    const page = await openInspector(browser, server.url);
    /** Waits until the turn's streamed reasoning reads `want` (bidi controls shown as markers). */
    const streamedIs = (want: string) => {
      const exact = want.replace('\u202E', '⟨U+202E⟩').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pre = page.locator('#steps li[data-kind="turn"] pre.reasoning-streamed', {
        hasText: new RegExp(`^${exact}$`),
      });
      return pre.waitFor({ state: 'attached' });
    };
    try {
      const run = collect(agent.run('think'));
      const fold = page.locator('#steps li[data-kind="turn"] details.reasoning');
      const streamed = fold.locator('pre.reasoning-streamed');
      await streamedIs(HOSTILE_PIECES[0] as string);
      await expect(fold.locator('summary').textContent()).resolves.toBe('reasoning · streaming');
      await expect(streamed.isVisible()).resolves.toBe(false);
      await fold.locator('summary').click();
      more();
      await streamedIs(HOSTILE_PIECES.join(''));
      // The update replaced the turn's item: the fold the user opened is still open.
      await expect(streamed.isVisible()).resolves.toBe(true);
      await expect(page.locator('img').count()).resolves.toBe(0);

      finish();
      await page.locator('#steps li[data-kind="answer"]').waitFor();
      await expect(page.locator('#steps li[data-kind="turn"] details.reasoning').count()).resolves.toBe(0);
      await expect(
        page.locator('#steps li[data-kind="answer"] details.reasoning pre').allTextContents(),
      ).resolves.toEqual([HOSTILE_PIECES.join('').replace('\u202E', '⟨U+202E⟩')]);
      await expect(page.evaluate(() => (globalThis as { pwned?: number }).pwned)).resolves.toBeUndefined();
      await run;
    } finally {
      detach();
      await server.close();
    }
  });
});
