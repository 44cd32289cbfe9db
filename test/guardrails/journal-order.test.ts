import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { fixed, guardedAgent } from './support.js';

/** A run through every stage: the input passes, the result is redacted, the answer passes. */
async function guardedRun(toolResult = fixed('secrets', { replace: '[redacted]' })) {
  const made = guardedAgent([toolTurn('c1', 'fetch', {}), textTurn('done')], {
    input: [fixed('in', 'pass')],
    toolResult: [toolResult],
    output: [fixed('out', 'pass')],
  });
  const events = await collect(made.agent.run('go'));
  return { ...made, events };
}

const rulesOf = (violations: readonly { rule: string; message: string }[]) =>
  violations.filter((v) => v.rule === 'guardrails').map((v) => v.message);

describe('checkLoopInvariants with Config.guardrails: each verdict before what it lets through', () => {
  it('holds on a run through every stage, and on one a tripwire ended', async () => {
    const passed = await guardedRun();
    expect(checkLoopInvariants(passed.session.journal, { config: passed.config, events: passed.events })).toEqual([]);
    const tripped = await guardedRun(fixed('stop', { tripwire: 'no' }));
    expect(checkLoopInvariants(tripped.session.journal, { config: tripped.config, events: tripped.events })).toEqual(
      [],
    );
  });

  it('reports a tool result journaled before its verdict', async () => {
    const { session, config } = await guardedRun();
    const journal = [...session.journal];
    const verdict = journal.findIndex((entry) => entry.type === 'guardrail' && entry.stage === 'toolResult');
    const result = journal.findIndex((entry) => entry.type === 'tool_result');
    [journal[verdict], journal[result]] = [journal[result] as JournalEntry, journal[verdict] as JournalEntry];
    expect(rulesOf(checkLoopInvariants(journal, { config }))).toEqual([
      "entry 7: the result of 'c1' is journaled before its guardrails' verdict",
      "entry 8: a verdict on 'c1' after its result was used",
    ]);
  });

  it('reports an answer without its output verdict, and a request after a tripwire', async () => {
    const { session, config } = await guardedRun();
    const withoutOutput = session.journal.filter((entry) => !(entry.type === 'guardrail' && entry.stage === 'output'));
    expect(rulesOf(checkLoopInvariants(withoutOutput, { config }))).toEqual([
      expect.stringMatching(/the final answer is journaled before its output guardrails' verdict/),
    ]);
    const tripwire = session.journal.map((entry) =>
      entry.type === 'guardrail' && entry.stage === 'toolResult' ? { ...entry, outcome: 'tripwire' as const } : entry,
    );
    expect(rulesOf(checkLoopInvariants(tripwire, { config }))).toContainEqual(
      expect.stringMatching(/\(turn_start\) follows a verdict that stopped the run/),
    );
  });
});
