import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_PRICES, PriceTable } from '../../src/adapters/prices.js';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { storedBudget } from '../../src/cli/stored-budget.js';
import { storedFeed } from '../../src/cli/stored-inspector.js';
import { Budget } from '../../src/config/budget.js';
import type { JournalEntry } from '../../src/core/journal-entry.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { readJournalFile } from '../../src/journal.js';
import { journalMeta } from '../../src/session/journal-file.js';
import { recordingSleep } from '../adapters/support/drain.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const prices = new PriceTable(MODEL_PRICES, () => {});

/** The last step's cost: the whole session's. */
function lastCost(feed: InspectorFeed): number {
  return feed.snapshot().steps.at(-1)?.cost ?? Number.NaN;
}

/** A run of gpt-4.1-mini that is rate limited and falls back to gpt-4.1, stored and journaled. */
async function fallbackRun() {
  server = await startFakeServer((request) =>
    (request.body as { model: string }).model === 'gpt-4.1-mini'
      ? { status: 429, chunks: ['{"error":{"message":"Rate limit reached"}}'] }
      : { chunks: [fixture('openai/text.sse')] },
  );
  const cwd = cliWorkspace();
  const store = `sqlite:${join(cwd, 'sessions.db')}`;
  const journal = join(cwd, 'run.jsonl');
  const recorder = recordingSleep();
  const command = createRunCommand({ retry: { sleep: recorder.sleep, random: () => 0 }, handleSigint: false });
  const args = ['hello', '--model', 'gpt-4.1-mini', '--fallback', 'gpt-4.1', '--base-url', `${server.url}/v1`];
  const code = await command(
    [...args, '--cwd', cwd, '--store', store, '--session', 'fb1', '--journal', journal],
    captured(),
    undefined,
    captured(),
  );
  expect(code).toBe(0);
  return { store, journal };
}

describe('inspect prices a fallback session per model', () => {
  it('prices each turn at the rates of the model that answered it, from a stored session and its journal file', async () => {
    const { store, journal } = await fallbackRun();
    const entries = await readJournalFile(journal);
    const usage = entries.find((entry) => entry.type === 'usage');
    expect(usage).toMatchObject({ model: 'gpt-4.1' });
    const counts = usage?.type === 'usage' ? usage.usage : undefined;
    if (counts === undefined) throw new Error('no usage entry');
    const atFallback = new Budget(prices.budgetRates('gpt-4.1')).usageCost(counts);
    const atPrimary = new Budget(prices.budgetRates('gpt-4.1-mini')).usageCost(counts);
    expect(atFallback).toBeGreaterThan(atPrimary);

    const { feed } = await storedFeed(store, 'fb1');
    expect(lastCost(feed)).toBeCloseTo(atFallback, 12);

    const meta = journalMeta(readFileSync(journal, 'utf8'));
    const budget = storedBudget(meta, entries);
    expect(
      lastCost(InspectorFeed.fromJournal(entries, { title: 'run.jsonl', ...(budget ? { budget } : {}) })),
    ).toBeCloseTo(atFallback, 12);
  });
});

describe('storedBudget', () => {
  const usage = { promptTokens: 1000, completionTokens: 1000, totalTokens: 2000 };
  const session = (model?: string): JournalEntry[] => [
    { type: 'user_message', content: 'hi' },
    { type: 'turn_start' } as JournalEntry,
    model === undefined ? { type: 'usage', usage } : { type: 'usage', usage, model },
  ];

  it('prices a named model by the rates kept in the meta, over its list price', () => {
    const meta = {
      model: 'gpt-4.1-mini',
      inputRatePer1k: '0.0004',
      outputRatePer1k: '0.0016',
      modelRates: JSON.stringify({ 'gpt-4.1': { inputRatePer1k: 1, outputRatePer1k: 2 } }),
    };
    expect(storedBudget(meta, session('gpt-4.1'))?.usageCost({ ...usage, byModel: { 'gpt-4.1': usage } })).toBe(3);
  });

  it('prices a model the meta keeps no rates for by its list price, and the session’s own model by the meta', () => {
    const meta = { model: 'gpt-4.1-mini', inputRatePer1k: '1', outputRatePer1k: '1' };
    const budget = storedBudget(meta, [...session('gpt-4o'), ...session('gpt-4.1-mini')]);
    expect(budget?.modelRates).toEqual({ 'gpt-4o': prices.budgetRates('gpt-4o') });
  });

  it('without kept rates, prices named models by their list prices; none named and none kept is undefined', () => {
    expect(storedBudget({}, session('gpt-4o'))?.modelRates).toEqual({ 'gpt-4o': prices.budgetRates('gpt-4o') });
    expect(storedBudget({}, session())).toBeUndefined();
    expect(storedBudget({}, session('a-model-without-a-price'))).toBeUndefined();
  });

  it('ignores malformed kept rates (a meta is untrusted)', () => {
    const meta = { inputRatePer1k: '1', outputRatePer1k: '1', modelRates: '{"x": {"inputRatePer1k": -1}}' };
    expect(storedBudget(meta, session('x'))?.modelRates).toBeUndefined();
    expect(storedBudget({ ...meta, modelRates: 'not json' }, session('x'))?.modelRates).toBeUndefined();
  });
});
