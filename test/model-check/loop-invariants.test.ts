import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, JournalEntry } from '../../src/index.js';
import {
  assertLoopInvariants,
  checkLoopInvariants,
  LoopInvariantError,
  type LoopRule,
  runScript,
  type Script,
  type ScriptRun,
} from '../../src/testing/index.js';
import { chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { ECHO_SCRIPT } from './echo-script.js';

const script: Script = ECHO_SCRIPT;

let run: ScriptRun;
beforeAll(async () => {
  run = await runScript(script, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 4 } });
});

function rules(journal: readonly JournalEntry[], events?: readonly AgentEvent[], maxTurns?: number): LoopRule[] {
  const options = { ...(events ? { events } : {}), ...(maxTurns ? { maxTurns } : {}) };
  return [...new Set(checkLoopInvariants(journal, options).map((v) => v.rule))];
}

function without(journal: readonly JournalEntry[], drop: (entry: JournalEntry) => boolean): JournalEntry[] {
  const index = journal.findIndex(drop);
  return journal.filter((_, i) => i !== index);
}

describe('checkLoopInvariants', () => {
  it('finds nothing wrong with a real run', () => {
    expect(checkLoopInvariants(run.journal, { events: run.events, maxTurns: 4 })).toEqual([]);
  });

  it('reports a tool call left without its result', () => {
    expect(rules(without(run.journal, (e) => e.type === 'tool_result'))).toContain('results_follow_calls');
  });

  it('accepts results journaled in settle order, and reports a result for a call nobody made', () => {
    const journal = run.journal.slice();
    const first = journal.findIndex((e) => e.type === 'tool_result');
    [journal[first], journal[first + 1]] = [journal[first + 1] as JournalEntry, journal[first] as JournalEntry];
    expect(rules(journal)).not.toContain('results_follow_calls');
    const forged = run.journal.map((e, i) =>
      i === first && e.type === 'tool_result' ? { ...e, callId: 'never-asked' } : e,
    );
    expect(rules(forged)).toContain('results_follow_calls');
  });

  it('reports a model request that skipped budgetCheck', () => {
    const journal = without(run.journal, (e) => e.type === 'transition' && e.to === 'budgetCheck');
    expect(rules(journal)).toEqual(expect.arrayContaining(['budget_check_before_request', 'transitions']));
  });

  it('reports more requests than the turn budget allows', () => {
    expect(rules(run.journal, undefined, 1)).toEqual(['turn_budget']);
  });

  it('reports a journal that ends in the middle of a run', () => {
    expect(rules(run.journal.slice(0, -1))).toContain('run_shape');
  });

  it('reports an internal error as a broken stop reason', () => {
    const journal = [
      ...run.journal.slice(0, -2),
      { type: 'transition', from: 'awaitingModel', to: 'error', event: 'x' },
    ];
    const failed = [...journal, { type: 'agent_error', reason: 'internal_error', message: 'boom' }] as JournalEntry[];
    expect(rules(failed)).toContain('stop_reason');
  });

  it('reports text_complete that differs from its deltas', () => {
    const events = run.events.map((e) => (e.type === 'text_complete' ? { ...e, data: { content: 'other' } } : e));
    expect(rules(run.journal, events)).toContain('text_order');
  });

  it('reports an end event that is not last', () => {
    const events = [...run.events, run.events[1] as AgentEvent];
    expect(rules(run.journal, events)).toContain('event_shape');
  });

  it('reports tool output that did not reach the model verbatim', () => {
    const events = run.events.map((e) =>
      e.type === 'tool_call_complete' ? { ...e, data: { ...e.data, output: 'rewritten' } } : e,
    );
    expect(rules(run.journal, events)).toContain('tool_events');
  });

  it('reports end usage that is not the sum of the journal', () => {
    const events = run.events.map((e) =>
      e.type === 'agent_end' ? { ...e, data: { ...e.data, usage: { ...e.data.usage, totalTokens: 1 } } } : e,
    );
    expect(rules(run.journal, events)).toContain('end_data');
  });

  it('reports a journal that Session.replay refuses', () => {
    const journal = [...run.journal, { type: 'mystery' }] as unknown as JournalEntry[];
    expect(rules(journal)).toContain('replay');
  });
});

describe('assertLoopInvariants', () => {
  it('throws a LoopInvariantError listing each violation and the context', () => {
    const broken = without(run.journal, (e) => e.type === 'tool_result');
    let caught: unknown;
    try {
      assertLoopInvariants(broken, { context: 'script: (the one above)' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LoopInvariantError);
    const error = caught as LoopInvariantError;
    expect(error.reason).toBe('loop_invariant');
    expect(error.violations.map((v) => v.rule)).toContain('results_follow_calls');
    expect(error.message).toMatch(/\[results_follow_calls\] .*call-1-\d/);
    expect(error.message).toContain('script: (the one above)');
  });
});
