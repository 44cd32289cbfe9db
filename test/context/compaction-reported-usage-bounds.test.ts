import { describe, expect, it } from 'vitest';
import {
  estimateContextTokens,
  estimateToolTokens,
  MAX_TOKEN_SCALE,
  MIN_TOKEN_SCALE,
} from '../../src/context/index.js';
import type { CompactionEntry } from '../../src/core/journal-entry.js';
import { type Message, Session, StreamEvent, stableJson } from '../../src/index.js';
import { parseJournal, serializeJournal } from '../../src/journal.js';
import { collect, makeAgent, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const MAX_TOKENS = 3_000;
const page = loremPages(170);

/**
 * A provider that reads pages 1..`pages`, one a turn, then answers, and reports for each request
 * `report(estimate)` prompt tokens (`estimate`: the harness's estimate of what it was sent).
 */
class Reporting {
  readonly requests: { messages: Message[]; estimate: number }[] = [];
  constructor(
    private readonly pages: number,
    private readonly report: (estimate: number) => number,
  ) {}
  async *chatCompletion(messages: readonly Message[], tools?: readonly never[]): AsyncGenerator<StreamEvent> {
    const estimate = estimateContextTokens(messages) + estimateToolTokens(tools);
    this.requests.push({ messages: messages.slice(), estimate });
    const n = this.requests.length;
    if (n > this.pages) yield StreamEvent.textDelta('read them all');
    else yield StreamEvent.toolCallComplete({ callId: `p${n}`, name: 'read_page', arguments: { page: n } });
    yield StreamEvent.messageComplete(usage(this.report(estimate), 1));
  }
}

function run(client: Reporting, tool = page) {
  return makeAgent(client, [() => tool], { cwd: tempWorkspace(), maxTurns: 30, context: { maxTokens: MAX_TOKENS } });
}

const compactions = (session: Session) =>
  session.journal.filter((entry): entry is CompactionEntry => entry.type === 'compaction');

describe('context compaction with a provider whose usage reports cannot be right', () => {
  it('still compacts when the provider reports a prompt of 1 token, and notes the bounded scale in the journal', async () => {
    const client = new Reporting(15, () => 1);
    const { agent, session, config, registry } = run(client);
    const events = await collect(agent.run('Read pages 1 to 15.'));
    expect(events.at(-1)?.type).toBe('agent_end');
    const entries = compactions(session);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.tokenScale?.used).toBe(MIN_TOKEN_SCALE);
      expect(entry.tokenScale?.reported).toBeLessThan(0.01);
    }
    // Every request fits maxTokens as the harness counts, at the least tokens per estimate it believes.
    for (const { estimate } of client.requests) expect(estimate * MIN_TOKEN_SCALE).toBeLessThanOrEqual(MAX_TOKENS);
    // The note survives a save and a load, byte for byte.
    const reread = parseJournal(serializeJournal(session.journal));
    expect(stableJson(Session.replay(reread, config, { registry }).journal)).toBe(stableJson(session.journal));
    // A note that is not two numbers is refused, naming the entry.
    const index = session.journal.indexOf(entries[0] as CompactionEntry);
    const hostile = session.journal.map((entry, i) =>
      i === index ? { ...entry, tokenScale: { reported: 'x' } } : entry,
    );
    expect(() => parseJournal(serializeJournal(hostile as typeof session.journal))).toThrow(/tokenScale/);
  });

  it('still compacts when the provider reports zero tokens (the estimate stands in)', async () => {
    const client = new Reporting(15, () => 0);
    const { agent, session } = run(client);
    await collect(agent.run('Read pages 1 to 15.'));
    expect(compactions(session).length).toBeGreaterThan(0);
    for (const entry of compactions(session)) expect(entry.tokenScale).toBeUndefined();
    for (const { estimate } of client.requests) expect(estimate).toBeLessThanOrEqual(MAX_TOKENS);
  });

  it('does not end a small run with context_overflow when the provider reports a thousand times the estimate', async () => {
    const client = new Reporting(2, (estimate) => 1_000 * estimate);
    const { agent } = run(client, loremPages(10));
    const events = await collect(agent.run('Read pages 1 and 2.'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'read them all' } });
    for (const { estimate } of client.requests) expect(estimate * MAX_TOKEN_SCALE).toBeLessThanOrEqual(MAX_TOKENS);
  });

  it('notes nothing when the provider reports a plausible count', async () => {
    const client = new Reporting(15, (estimate) => Math.round(1.3 * estimate));
    const { agent, session } = run(client);
    await collect(agent.run('Read pages 1 to 15.'));
    expect(compactions(session).length).toBeGreaterThan(0);
    for (const entry of compactions(session)) expect(Object.keys(entry)).not.toContain('tokenScale');
  });
});
