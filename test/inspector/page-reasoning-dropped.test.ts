import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReasoningContent } from '../../src/core/messages.js';
import type { ModelClient } from '../../src/core/model-client.js';
import { Agent, Config, ScriptedClient, Session, StreamEvent } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { collect } from '../support/fixtures.js';
import { skipWithout } from '../support/required-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { launchBrowser, openInspector } from './support/browser.js';

/** A provider name written to break the page: markup and a bidi override. */
const HOSTILE_PROVIDER = '<img src=x onerror="window.pwned=1">\u202Eevil';

/** The first run's answer reasoned with two providers (three parts); the second run's client is openai's. */
const FIRST_ANSWER: ReasoningContent[] = [
  { type: 'reasoning', provider: 'anthropic', text: 'hmm', signature: 'sig' },
  { type: 'reasoning', provider: HOSTILE_PROVIDER, text: 'boo' },
  { type: 'redacted_reasoning', provider: 'anthropic', data: 'opaque' },
];

/** A scripted model that speaks for `provider`. */
function scripted(provider: string, client: ScriptedClient): ModelClient {
  return { provider, chatCompletion: (messages, tools, options) => client.chatCompletion(messages, tools, options) };
}

let browser: Browser;
let server: InspectorServer;
let page: Page;
let steps: readonly TimelineStep[];

beforeAll(async () => {
  const config = new Config({ cwd: tempWorkspace() });
  const first = new Agent(config, {
    client: new ScriptedClient([
      [...FIRST_ANSWER.map((part) => StreamEvent.reasoningComplete(part)), StreamEvent.textDelta('one')],
    ]),
  });
  await collect(first.run('count'));
  const second = new Agent(config, {
    session: Session.replay(first.session.journal, config),
    client: scripted('openai', new ScriptedClient([[StreamEvent.textDelta('two'), StreamEvent.messageComplete()]])),
  });
  await collect(second.run('again'));
  const feed = InspectorFeed.fromJournal(second.session.journal, { title: 'dropped.jsonl' });
  steps = feed.snapshot().steps;
  [browser, server] = await Promise.all([launchBrowser(), startInspector(feed)]);
  page = await openInspector(browser, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the timeline of a turn whose request left reasoning out', () => {
  it('counts the parts left out by provider on the turn, in order of first note; a turn that left none out has none', () => {
    const turns = steps.filter((s) => s.kind === 'turn');
    expect(turns.map((s) => s.droppedReasoning)).toEqual([
      undefined,
      [
        { provider: 'anthropic', parts: 2 },
        { provider: HOSTILE_PROVIDER, parts: 1 },
      ],
    ]);
    // Usage arriving later replaces the turn step: the note stays on it.
    expect(turns[1]?.title).toMatch(/in \/ .* out/);
  });
});

describe.skipIf(skipWithout('chromium'))('the inspector page of a turn whose request left reasoning out', () => {
  it('shows one inert line per provider on the turn, and none on a turn that left nothing out', async () => {
    const turns = page.locator('#steps li[data-kind="turn"]');
    await expect(turns.count()).resolves.toBe(2);
    await expect(turns.first().locator('.dropped-reasoning').count()).resolves.toBe(0);
    await expect(turns.nth(1).locator('.dropped-reasoning').allTextContents()).resolves.toEqual([
      'left out 2 reasoning parts of anthropic',
      `left out 1 reasoning part of ${HOSTILE_PROVIDER.replace('\u202E', '⟨U+202E⟩')}`,
    ]);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as { pwned?: number }).pwned)).resolves.toBeUndefined();
  });

  it('shows the lines in the detail panel of the selected turn', async () => {
    await page.locator('#steps li[data-kind="turn"]').nth(1).locator('.title').click();
    await expect(page.locator('#detail .dropped-reasoning').allTextContents()).resolves.toEqual([
      'left out 2 reasoning parts of anthropic',
      `left out 1 reasoning part of ${HOSTILE_PROVIDER.replace('\u202E', '⟨U+202E⟩')}`,
    ]);
  });
});
