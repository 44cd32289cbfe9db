import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../src/index.js';
import { modelCheckAgentMachine } from '../../src/testing/index.js';
import { expectReported } from '../model-check/expect-reported.js';

const context = { budget: { maxTurns: 3, maxTotalTokens: 100 }, maxToolCalls: 1, context: true } as const;

describe('the model checker and context compaction', () => {
  it('finds nothing wrong with the real machine when turns overfill the context, and reaches every outcome', () => {
    const report = modelCheckAgentMachine(context);
    expect(report.violations).toEqual([]);
    expect(report.visited).toContain('compacting');
    // Nothing left to compact, a failed summary, and a summary whose usage crosses the token limit.
    expect(report.stopReasons).toContain('context_overflow');
    expect(report.stopReasons).toContain('model_error');
    expect(report.stopReasons).toContain('token_budget');
  });

  it('reports: a compaction that finds nothing is taken as one that made room (the run never ends)', () => {
    const machine = agentMachine.provide({ guards: { compactionMadeRoom: ({ event }) => event.type === 'COMPACTED' } });
    expectReported(modelCheckAgentMachine({ ...context, machine }), [
      ['dropped_event', /'compacted\(nothing\)' is dropped in 'compacting'/],
    ]);
  });
});
