import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/adapters/index.js';
import { fallbackClient } from '../../src/fallback.js';
import {
  Agent,
  Config,
  type ModelClient,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolRegistry,
} from '../../src/index.js';
import { collect } from '../support/fixtures.js';
import { page, pageCall } from './support/long-page.js';

// SPEC §15: "A fallback client is a ModelClient over several; each switch is journaled with its
// reason." docs/adapters.md: the usage entry names the model that answered, priced at its rates.
// A context summary is a request too: when the chain switches for it, the journal must say so.

/** The summariser's primary: overloaded on every request. */
const overloaded: ModelClient = {
  model: 'primary',
  // biome-ignore lint/correctness/useYield: it fails before its first event
  async *chatCompletion() {
    throw new ModelError('overloaded', 'primary is overloaded');
  },
};

/** The summariser's second model: answers with a summary and its usage. */
const backup: ModelClient & { model: string } = {
  model: 'backup',
  async *chatCompletion() {
    yield StreamEvent.textDelta('they read two pages');
    yield StreamEvent.messageComplete({ promptTokens: 1000, completionTokens: 10, totalTokens: 1010 }, 'stop');
  },
};

describe('SPEC §15: a fallback chain that switches for a context summary', () => {
  it('journals the switch with its reason, and names the model that answered on the summary’s usage', async () => {
    const config = new Config({
      context: { maxTokens: 5000, strategy: 'summarise', client: fallbackClient([overloaded, backup]) },
      budget: { modelRates: { backup: { inputRatePer1k: 1, outputRatePer1k: 1 } } },
    });
    const client = new ScriptedClient([
      pageCall('c1'),
      pageCall('c2'),
      pageCall('c3'),
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete()],
    ]);
    const session = new Session(config);
    const agent = new Agent(config, { client, tools: new ToolRegistry(config).register(page), session });
    const events = await collect(agent.run('read the pages'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    const journal = session.journal;
    const compaction = journal.findIndex((entry) => entry.type === 'compaction');
    expect(compaction).toBeGreaterThan(0);
    expect(journal.filter((entry) => entry.type === 'model_switch')).toEqual([
      { type: 'model_switch', from: 'primary', to: 'backup', reason: 'overloaded', message: 'primary is overloaded' },
    ]);
    const switched = journal.findIndex((entry) => entry.type === 'model_switch');
    expect(switched).toBeLessThan(compaction);
    expect(journal[compaction - 1]).toEqual({
      type: 'usage',
      usage: { promptTokens: 1000, completionTokens: 10, totalTokens: 1010 },
      model: 'backup',
    });
    // Priced at the answering model's rates, live and after replay: 1,010 tokens at 1 per 1,000.
    expect(config.budget.usageCost(session.totalUsage)).toBeCloseTo(1.01, 9);
    expect(config.budget.usageCost(Session.replay(journal, config).totalUsage)).toBeCloseTo(1.01, 9);
  });
});
