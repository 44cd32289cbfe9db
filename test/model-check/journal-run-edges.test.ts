/**
 * How `checkLoopInvariants` cuts a journal into runs (the run a message names by its first entry)
 * and the edges of its journal rules, on hand-written journals a buggy or interrupted loop leaves.
 */
import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../src/diagram/machine-graph.js';
import type { JournalEntry } from '../../src/index.js';
import { agentMachine } from '../../src/machines/agent-machine.js';
import { checkLoopInvariants, type LoopRule } from '../../src/testing/index.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const call = (callId: string) => ({ callId, name: 'echo', arguments: {} });
const move = (from: string, to: string, event = 'MODEL_TURN'): JournalEntry => ({
  type: 'transition',
  from,
  to,
  event,
});
const user: JournalEntry = { type: 'user_message', content: 'go' };
const turn: JournalEntry[] = [{ type: 'turn_start' }, { type: 'usage', usage }];
const asks = (...ids: string[]): JournalEntry => ({ type: 'assistant_message', content: '', toolCalls: ids.map(call) });

const of = (rule: LoopRule, journal: readonly JournalEntry[]) =>
  checkLoopInvariants(journal)
    .filter((v) => v.rule === rule)
    .map((v) => v.message);
const lastRunFrom = (journal: readonly JournalEntry[]) => of('run_shape', journal);
const from = (entry: number) => [`the journal ends in a run without agent_end or agent_error (from entry ${entry})`];

describe('the runs of a journal', () => {
  it("start at a user's message, even while the run before never ended", () => {
    expect(lastRunFrom([user, ...turn, asks('c1'), { ...user, content: 'again' }, ...turn])).toEqual(from(4));
  });

  it('start at a model request no move into awaitingModel led to (a fresh machine)', () => {
    expect(lastRunFrom([user, ...turn, { type: 'turn_start' }])).toEqual(from(3));
  });

  it('keep the approval requests a resumed run journals before its first move', () => {
    const suspended: JournalEntry[] = [
      user,
      ...turn,
      asks('c1'),
      move('awaitingModel', 'executingTools'),
      move('executingTools', 'awaitingApproval', 'NEEDS_APPROVAL'),
      { type: 'approval_request', callId: 'c1' },
      { type: 'agent_error', reason: 'suspended', message: 'waiting for approval' },
    ];
    const resumed: JournalEntry[] = [
      ...suspended,
      { type: 'approval_request', callId: 'c1' },
      move('awaitingModel', 'executingTools', 'xstate.init'),
    ];
    expect(lastRunFrom(resumed)).toEqual(from(suspended.length));
    expect(of('results_follow_calls', resumed)).toEqual([]);
  });
});

describe('the journal rules', () => {
  it('report a move from a state to itself, which the machine records as no move', () => {
    const self = machineGraph(agentMachine).edges.find((edge) => edge.from === edge.to);
    expect(self).toBeDefined();
    const state = self?.from ?? '';
    const journal = [user, move('awaitingModel', state), move(state, state)];
    expect(of('transitions', journal)).toContain(`entry 2 (transition): the machine has no move ${state}→${state}`);
  });

  it('name every call a journal leaves without a result', () => {
    expect(of('results_follow_calls', [user, ...turn, asks('c1', 'c2')])).toEqual([
      'the journal ends while c1, c2 have no result',
    ]);
  });

  it('take a denial whose reason is "suspended" for a denial, not a suspended run', () => {
    const denied: JournalEntry = { type: 'approval_decision', callId: 'c1', approved: false, reason: 'suspended' };
    expect(of('results_follow_calls', [user, ...turn, asks('c1'), denied])).toEqual([
      'the journal ends while c1 have no result',
    ]);
  });

  it('owe nothing for an answer sent back without tool calls', () => {
    const journal: JournalEntry[] = [
      user,
      ...turn,
      { type: 'assistant_message', content: 'not json' },
      { type: 'user_message', content: 'Answer in JSON.', author: 'harness' },
      ...turn,
    ];
    expect(of('results_follow_calls', journal)).toEqual([]);
  });

  it('name the request that follows an observation without budgetCheck, whatever agent took over', () => {
    const journal: JournalEntry[] = [
      user,
      ...turn,
      asks('c1'),
      { type: 'tool_result', callId: 'c1', content: 'out' },
      { type: 'handoff', from: 'main', to: 'budgetCheck', instructions: 'x' },
      move('executingTools', 'awaitingModel', 'ALL_SETTLED'),
      ...turn,
    ];
    expect(of('budget_check_before_request', journal)).toEqual([
      'entry 7 (turn_start) follows an observation without budgetCheck',
    ]);
  });

  it('accept a run that only moves to done and answers (no request of its own)', () => {
    const journal: JournalEntry[] = [user, move('awaitingModel', 'done'), { type: 'agent_end', response: 'x' }];
    expect(of('done_after_text_turn', journal)).toEqual([]);
  });

  it('take the state a run ended in from its last move, not from the entries after it', () => {
    const journal: JournalEntry[] = [
      user,
      move('awaitingModel', 'done'),
      { type: 'usage', usage },
      { type: 'agent_end', response: 'x' },
    ];
    expect(of('done_after_text_turn', journal)).toEqual([]);
  });

  it('check a journal that starts with an assistant message or a harness note without failing', () => {
    expect(of('usage', [{ type: 'assistant_message', content: 'x' }])).toEqual([
      "entry 0 (assistant_message) is not recorded right after its turn's usage",
    ]);
    expect(of('soft_limit', [{ type: 'user_message', content: 'Answer now.', author: 'harness' }])).toEqual([
      'entry 0 (user_message): a harness message without a budget warning before it',
    ]);
  });
});
