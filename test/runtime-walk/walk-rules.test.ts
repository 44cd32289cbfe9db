// The runtime walk's rules as units, on hand-made paths: each problem as the rule words it, and
// each boundary on both sides.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/journal-entry.js';
import { RUNTIME_RULES } from '../../src/testing/index.js';
import {
  answer,
  asks,
  call,
  calls,
  ran,
  request,
  result,
  said,
  started,
  stop,
  turn,
  used,
  user,
  view,
} from './walk-view.js';

const {
  resume_never_reruns: resume,
  handoff_swaps_tools: handoff,
  compaction_keeps_pairs: pairs,
  journal_order: order,
  budget_boundaries: budget,
  context_boundary: context,
  invalid_calls_boundary: invalid,
  output_retries_boundary: retries,
  parallel_cap: cap,
  policy_kept: policy,
  tree_budget: tree,
} = RUNTIME_RULES;

const tools = new Map([
  ['look', { name: 'look' }],
  ['save', { name: 'save', kind: 'write' as const }],
  ['deploy', { name: 'deploy', kind: 'shell' as const }],
]);

describe('resume_never_reruns', () => {
  const journal = [user(), turn, used(1), asks(['a', 'b']), started('a'), result('a'), started('b'), started('b')];
  it('reports a call with a recorded result, or a non-idempotent call in doubt, that ran after the crash', () => {
    const executions = ran('start:a', 'end:a', 'start:b:save', 'start:c', 'start:a::helper');
    expect(resume(view({ journal, resumedAt: 8, executions, tools }))).toEqual([
      'a (look) ran again after the crash at entry 8: its result was recorded at entry 5',
      'b (save, not idempotent) ran again after the crash at entry 8: it was in doubt (started at entry 6, no result)',
    ]);
  });
  it('lets an idempotent call in doubt, a call of an unknown tool, and any call of a path without a crash run', () => {
    expect(resume(view({ journal, resumedAt: 8, executions: ran('start:b'), tools }))).toEqual([]);
    expect(resume(view({ journal, resumedAt: 8, executions: ran('start:b:other'), tools }))).toEqual([]);
    expect(resume(view({ journal, executions: ran('start:a'), tools }))).toEqual([]);
    expect(resume(view({ journal, resumedAt: 4, executions: ran('start:a'), tools }))).toEqual([]);
  });
  it('takes a result journaled after the crash as no reason', () => {
    expect(resume(view({ journal, resumedAt: 5, executions: ran('start:b:save'), tools }))).toEqual([]);
  });
});

describe('handoff_swaps_tools', () => {
  const agents = new Map([
    ['main', { instructions: 'M', tools: ['look', 'transfer_to_ops'] }],
    ['ops', { instructions: 'O', tools: ['deploy', 'look'] }],
  ]);
  const handedOff: JournalEntry = { type: 'handoff', from: 'main', to: 'ops', instructions: 'O' };
  const journal = [user(), turn, used(1), handedOff, result('a'), turn];
  const system = (content: string) => ({ role: 'system' as const, content });
  it('reports a request after a handoff with the old tools or instructions', () => {
    const requests = [
      request(2, [system('M'), said('go')], ['transfer_to_ops', 'look']),
      request(5, [system('M'), said('go')], ['look', 'transfer_to_ops']),
      request(6, [said('go')], ['look', 'deploy']),
    ];
    expect(handoff(view({ journal, agents, requests }))).toEqual([
      "request 2 (after entry 4) offers [look, transfer_to_ops] but 'ops' is in charge since the handoff at entry 3: its tools are [deploy, look]",
      "request 2 (after entry 4) does not carry the instructions of 'ops', in charge since the handoff at entry 3",
      "request 3 (after entry 5) does not carry the instructions of 'ops', in charge since the handoff at entry 3",
    ]);
  });
  it('names the main agent in charge from the start, and skips summaries, withheld tools and unknown agents', () => {
    const before = [request(1, [system('M')], ['deploy'])];
    expect(handoff(view({ journal, agents, requests: before }))).toEqual([
      "request 1 (after entry 0) offers [deploy] but 'main' is in charge from the start: its tools are [look, transfer_to_ops]",
    ]);
    const fine = [request(6, [said('x')], ['deploy'], true), request(6, [system('O')], [])];
    expect(handoff(view({ journal, agents, requests: fine }))).toEqual([]);
    const elsewhere: JournalEntry = { type: 'handoff', from: 'main', to: 'nobody', instructions: 'N' };
    expect(handoff(view({ journal: [handedOff, elsewhere], agents, requests: [request(2, [], ['x'])] }))).toEqual([]);
  });
  it('compares tools as sets of the same size, and checks instructions only where an agent has them', () => {
    const main = new Map([['main', { instructions: undefined, tools: ['look', 'look'] }]]);
    expect(handoff(view({ agents: main, requests: [request(0, [said('go')], ['look', 'other'])] }))).toHaveLength(1);
    expect(handoff(view({ agents: main, requests: [request(0, [said('go')], ['look'])] }))).toHaveLength(1);
    expect(handoff(view({ agents: main, requests: [request(0, [said('go')], ['look', 'look'])] }))).toEqual([]);
  });
  it('takes the tools in any order, and wants the instructions as a system message', () => {
    const ops = new Map([['main', { instructions: 'O', tools: ['look', 'deploy'] }]]);
    expect(
      handoff(view({ agents: ops, requests: [request(0, [{ role: 'system', content: 'O' }], ['deploy', 'look'])] })),
    ).toEqual([]);
    expect(handoff(view({ agents: ops, requests: [request(0, [said('O')], ['deploy', 'look'])] }))).toEqual([
      "request 1 (after entry -1) does not carry the instructions of 'main', in charge from the start",
    ]);
    expect(handoff(view({ agents: ops, requests: [request(0, [], [])] }))).toHaveLength(1);
  });
});

describe('compaction_keeps_pairs', () => {
  it('reports a call without its result and a result without its call, in any request', () => {
    const requests = [
      request(3, [said('go'), calls('a', 'b'), answer('a'), answer('b'), said('next')]),
      request(9, [said('go'), calls('a', 'b'), answer('a'), said('summarise')], [], true),
      request(10, [said('go'), answer('x'), call('c'), answer('c'), answer('c')]),
      request(11, [said('go'), call('d')]),
    ];
    expect(pairs(view({ requests }))).toEqual([
      'summary request 2 (after entry 8): message 3 follows calls b that have no result',
      'request 3 (after entry 9): message 1 is a result of x without its call before it',
      'request 3 (after entry 9): message 4 is a result of c without its call before it',
      'request 4 (after entry 10): message 2 follows calls d that have no result',
    ]);
  });
  it('names every call still owed, and takes an answer without calls as owing nothing', () => {
    const text = { role: 'assistant' as const, content: 'hi' };
    expect(pairs(view({ requests: [request(1, [said('go'), calls('a', 'b'), said('next')])] }))).toEqual([
      'request 1 (after entry 0): message 2 follows calls a, b that have no result',
    ]);
    expect(pairs(view({ requests: [request(1, [said('go'), text, said('next')])] }))).toEqual([]);
  });
});

describe('journal_order', () => {
  it('reports a result before its start', () => {
    expect(order(view({ journal: [user(), asks(['a']), result('a'), started('a')] }))).toContain(
      'the result of a (entry 2) comes before its tool_started (entry 3)',
    );
  });
  it('reports results journaled in another order than the tools finished in, after the crash only', () => {
    const journal = [user(), asks(['a', 'b']), started('a'), started('b'), result('a'), result('b')];
    const executions = ran('start:a', 'start:b', 'end:b', 'end:a', 'end:z', 'end:q::helper');
    expect(order(view({ journal, executions }))).toEqual([
      'a finished after b but its result was journaled first (entry 4 before 5)',
    ]);
    expect(order(view({ journal, executions, resumedAt: 5 }))).toEqual([]);
    expect(order(view({ journal, executions: ran('end:a', 'end:b') }))).toEqual([]);
  });
  it('orders the main agent’s finished calls only, each as often as it finished', () => {
    const journal = [user(), asks(['a', 'b']), started('a'), started('b'), result('a'), result('b')];
    expect(order(view({ journal, executions: ran('start:b', 'start:a', 'end:a', 'end:b') }))).toEqual([]);
    expect(order(view({ journal, executions: ran('end:b', 'end:a::helper') }))).toEqual([]);
    expect(order(view({ journal, executions: ran('end:a', 'end:a', 'end:b') }))).toEqual([]);
    expect(order(view({ journal, executions: ran('end:b', 'end:a'), resumedAt: 4 }))).toHaveLength(1);
  });
  it('takes a call’s first start: a re-run after its result is not out of order', () => {
    expect(order(view({ journal: [user(), asks(['a']), started('a'), result('a'), started('a')] }))).toEqual([]);
  });
  it('reports tool messages out of the order of the calls, in a request', () => {
    const requests = [
      request(1, [said('go'), calls('a', 'b'), answer('b'), answer('a'), answer('z'), call('c'), answer('c')]),
    ];
    expect(order(view({ requests }))).toEqual([
      "request 1: message 3, the result of a, comes after a later call's result",
    ]);
  });
  it('leaves a journal that cannot be replayed to the replay invariant', () => {
    expect(order(view({ journal: [result('nobody')] }))).toEqual([]);
  });
});

describe('budget_boundaries', () => {
  const tokens = (max: number, last: number) =>
    budget(
      view({
        config: { maxTotalTokens: max },
        journal: [user(), turn, used(40), asks(['a']), result('a'), turn, used(last), asks(['b']), result('b'), turn],
      }),
    );
  it('reports a request once tokens exceed the limit, not at it', () => {
    expect(tokens(80, 41)).toEqual([
      'entry 9 (turn_start) asks the model after 2 turns, 81 tokens: token_budget was reached',
    ]);
    expect(tokens(80, 40)).toEqual([]);
  });
  it('counts a sub-agent’s usage with its result, and each run on its own', () => {
    const child: JournalEntry = {
      ...result('a'),
      usage: { promptTokens: 0, completionTokens: 50, totalTokens: 50 },
    } as JournalEntry;
    const journal = [user(), turn, used(40), asks(['a']), child, turn];
    expect(budget(view({ config: { maxTotalTokens: 80 }, journal }))).toEqual([
      'entry 5 (turn_start) asks the model after 1 turns, 90 tokens: token_budget was reached',
    ]);
    expect(budget(view({ config: { maxTotalTokens: 80 }, journal, runStarts: [0, 5] }))).toEqual([]);
  });
  it('reports a request once turns reach the limit', () => {
    const journal = [user(), turn, used(1), asks(['a']), result('a'), turn, used(1), asks(['b']), turn];
    expect(budget(view({ config: { maxTurns: 2 }, journal }))).toEqual([
      'entry 8 (turn_start) asks the model after 2 turns, 2 tokens: turn_budget was reached',
    ]);
    expect(budget(view({ config: { maxTurns: 3 }, journal }))).toEqual([]);
  });
  it('reports a budget stop no limit called for, and none for a stop that is not a budget’s', () => {
    const journal = (reason: string) => [user(), turn, used(40), asks(['a']), stop(reason)];
    expect(budget(view({ config: { maxTotalTokens: 80 }, journal: journal('token_budget') }))).toEqual([
      'entry 4 stops the run with token_budget after 1 turns, 40 tokens, where the budget says go on',
    ]);
    expect(budget(view({ config: { maxTotalTokens: 30 }, journal: journal('token_budget') }))).toEqual([]);
    expect(budget(view({ config: { maxTotalTokens: 80 }, journal: journal('model_error') }))).toEqual([]);
    expect(budget(view({ config: { maxTotalTokens: 30, maxTurns: 1 }, journal: journal('token_budget') }))).toEqual([
      'entry 4 stops the run with token_budget after 1 turns, 40 tokens, where the budget says turn_budget',
    ]);
  });
});

describe('context_boundary', () => {
  const compaction = (tokensBefore: number): JournalEntry => ({
    type: 'compaction',
    strategy: 'summarise',
    from: 1,
    to: 3,
    messages: [],
    tokensBefore,
    tokensAfter: 10,
  });
  it('reports a compaction at or under the limit, not over it, and nothing without a limit', () => {
    const journal = [compaction(100), compaction(101), compaction(99)];
    expect(context(view({ config: { context: { maxTokens: 100 } }, journal }))).toEqual([
      'entry 0 compacts a context of 100 tokens, not over context.maxTokens 100',
      'entry 2 compacts a context of 99 tokens, not over context.maxTokens 100',
    ]);
    expect(context(view({ journal }))).toEqual([]);
  });
});

describe('invalid_calls_boundary', () => {
  const bad = (id: string) => result(id, 'Error: Invalid parameters: x');
  const unknown = (id: string) => result(id, "Error: Unknown tool 'x'");
  const check = (journal: JournalEntry[]) => invalid(view({ config: { maxInvalidToolCalls: 2 }, journal }));
  it('reports a request after the limit of invalid calls in a row (an error that is not a validation one keeps the count)', () => {
    expect(check([user(), asks(['a']), bad('a'), asks(['b']), unknown('b'), turn])).toEqual([
      "entry 5 asks the model again after 2 invalid calls of 'look' in a row",
    ]);
    expect(check([user(), asks(['a', 'x', 'b']), bad('a'), result('x', 'Error: boom'), bad('b'), turn])).toHaveLength(
      1,
    );
  });
  it('lets a success clear the count, a user’s message start over, and a call without a result count nothing', () => {
    expect(check([user(), asks(['a', 'x', 'b']), bad('a'), result('x'), bad('b'), turn])).toEqual([]);
    expect(check([user(), asks(['a', 'b']), bad('a'), bad('b'), user('again'), turn])).toEqual([]);
    expect(check([user(), asks(['a', 'b']), bad('a'), turn])).toEqual([]);
    expect(check([user(), asks(['a']), bad('a'), asks(['b'], 'other'), bad('b'), turn])).toEqual([]);
  });
  it('keeps counting over a harness note, and lets a resume() after any end ask once', () => {
    const note: JournalEntry = { type: 'user_message', content: 'note', author: 'harness' };
    expect(check([user(), asks(['a']), bad('a'), note, asks(['b']), bad('b'), turn])).toHaveLength(1);
    const answered: JournalEntry = { type: 'agent_end', response: 'done' };
    expect(check([user(), asks(['a', 'b']), bad('a'), bad('b'), answered, turn])).toEqual([]);
  });
  it('lets a resume() after an ended run ask once, and no more', () => {
    const ended = [user(), asks(['a', 'b']), bad('a'), bad('b'), stop('invalid_tool_calls')];
    expect(check([...ended, turn])).toEqual([]);
    expect(check([...ended, turn, asks(['c']), bad('c'), turn])).toEqual([
      "entry 8 asks the model again after 2 invalid calls of 'look' in a row",
    ]);
  });
  it('reports an invalid_tool_calls stop under the limit', () => {
    expect(check([user(), asks(['a']), bad('a'), stop('invalid_tool_calls')])).toEqual([
      'entry 3 stops with invalid_tool_calls, but no tool has 2 invalid calls in a row',
    ]);
    expect(check([user(), asks(['a']), bad('a'), stop('model_error')])).toEqual([]);
  });
});

describe('output_retries_boundary', () => {
  const rejected: JournalEntry = { type: 'assistant_message', content: 'nope' };
  const note: JournalEntry = { type: 'user_message', content: 'fix it', author: 'harness' };
  const scenario = (outputRetries?: number) => ({
    name: 'unit',
    script: [],
    ...(outputRetries === undefined ? {} : { outputRetries }),
  });
  it('reports a failing answer sent back once too often, per run', () => {
    const journal = [user(), turn, rejected, note, turn, rejected, note];
    expect(retries(view({ scenario: scenario(1), journal }))).toEqual([
      'entry 6 sends a failing answer back for the 2th time, over outputRetries 1',
    ]);
    expect(retries(view({ scenario: scenario(1), journal, runStarts: [0, 4] }))).toEqual([]);
    expect(retries(view({ scenario: scenario(), journal }))).toEqual([]);
  });
  it('counts only notes right after an answer without calls', () => {
    const journal = [
      user(),
      turn,
      asks(['a']),
      note,
      { type: 'budget_warning', budget: 'turns', used: 1 } as JournalEntry,
      note,
    ];
    expect(retries(view({ scenario: scenario(0), journal }))).toEqual([]);
  });
  it('reports output_invalid before the retries are used, not after', () => {
    const early = [user(), turn, rejected, stop('output_invalid')];
    expect(retries(view({ scenario: scenario(1), journal: early }))).toEqual([
      'entry 3 stops with output_invalid after 0 of 1 retries',
    ]);
    const late = [user(), turn, rejected, note, turn, rejected, stop('output_invalid'), stop('model_error')];
    expect(retries(view({ scenario: scenario(1), journal: late }))).toEqual([]);
  });
  it('keeps each run to its own entries, and counts no other entry after a rejected answer', () => {
    const journal = [user(), rejected, note, rejected, note];
    expect(retries(view({ scenario: scenario(1), journal, runStarts: [0, 4] }))).toEqual([]);
    const others = [
      user(),
      rejected,
      { type: 'transition', from: 'a', to: 'b', event: 'e' } as JournalEntry,
      rejected,
      user('again'),
    ];
    expect(retries(view({ scenario: scenario(0), journal: others }))).toEqual([]);
    expect(retries(view({ scenario: scenario(1), journal: [user(), rejected, stop('model_error')] }))).toEqual([]);
  });
});

describe('parallel_cap', () => {
  const check = (parts: Parameters<typeof view>[0]) => cap(view({ config: { maxParallelTools: 2 }, ...parts }));
  it('reports more calls running at once than the cap, as the tools ran them and as the journal says', () => {
    expect(check({ executions: ran('start:a', 'start:b', 'start:c', 'start:d::helper') })).toEqual([
      '3 calls ran at once (c started), over maxParallelTools 2',
    ]);
    expect(check({ journal: [started('a'), started('b'), started('c')] })).toEqual([
      'entry 2 starts a call while 2 run, at maxParallelTools 2',
    ]);
  });
  it('counts calls that ended, and forgets a crashed run’s calls', () => {
    expect(check({ executions: ran('start:a', 'start:b', 'end:a', 'start:c') })).toEqual([]);
    expect(check({ journal: [started('a'), started('b'), result('a'), started('c')] })).toEqual([]);
    expect(check({ journal: [started('a'), started('b'), started('c')], runStarts: [0, 2] })).toEqual([]);
    expect(check({ journal: [user(), turn, asks(['a', 'b']), started('a'), started('b')] })).toEqual([]);
  });
});

describe('policy_kept', () => {
  const config = { permissions: { shell: 'ask' as const, write: 'deny' as const } };
  const decided = (callId: string, approved: boolean): JournalEntry => ({
    type: 'approval_decision',
    callId,
    approved,
  });
  it('reports a call that ran without its approval, or that the policy denies', () => {
    const journal = [
      user(),
      asks(['a'], 'deploy'),
      asks(['b'], 'save'),
      asks(['c'], 'deploy'),
      decided('c', true),
      asks(['d'], 'deploy'),
      decided('d', false),
    ];
    const executions = ran(
      'start:a:deploy',
      'start:b:save',
      'start:c:deploy',
      'start:d:deploy',
      'end:a:deploy',
      'start:a:look',
      'start:b:save:helper',
    );
    expect(policy(view({ config, journal, executions, tools }))).toEqual([
      'the session: a (deploy) ran without an approval, which the policy (shell) asks for',
      'the session: b (save) ran, which the policy (write) denies',
      'the session: d (deploy) ran without an approval, which the policy (shell) asks for',
    ]);
  });
  it('judges an execution only as the journal’s call of that name, and lets a tool no rule names run', () => {
    const journal = [user(), asks(['c'], 'deploy'), decided('c', true), asks(['e'], 'look')];
    expect(policy(view({ config, journal, executions: ran('start:c:save', 'start:e:look'), tools }))).toEqual([]);
  });
  it('checks the sub-agent’s calls against the root’s policy', () => {
    const children = new Map([['kid', [asks(['a'], 'save')]]]);
    const executions = ran('start:a:save:helper');
    const scenario = { name: 'unit', script: [], subAgent: { name: 'helper', script: [] } };
    expect(policy(view({ config, children, executions, tools, scenario }))).toEqual([
      'sub-agent kid: a (save) ran, which the policy (write) denies',
    ]);
    expect(policy(view({ config, children, executions, tools }))).toEqual([]);
  });
  it('takes a tool it does not know for a read', () => {
    const journal = [user(), asks(['a'], 'mystery')];
    expect(
      policy(view({ config: { permissions: { read: 'deny' } }, journal, executions: ran('start:a:mystery') })),
    ).toEqual(['the session: a (mystery) ran, which the policy (read) denies']);
  });
});

describe('tree_budget', () => {
  const spawn: JournalEntry = { type: 'tool_started', callId: 'a', childSessionId: 'kid' };
  const child = (last: number) => new Map([['kid', [turn, used(50), turn, used(last), turn]]]);
  it('reports a sub-agent’s request once the tree has used more than the root’s tokens, not at them', () => {
    const journal = [user(), used(10), result('x'), asks(['a'], 'helper'), spawn];
    expect(tree(view({ config: { maxTotalTokens: 100 }, journal, children: child(41) }))).toEqual([
      "sub-agent kid asks its model at its entry 4 when the tree has used 101 tokens, over the root's maxTotalTokens 100",
    ]);
    expect(tree(view({ config: { maxTotalTokens: 100 }, journal, children: child(40) }))).toEqual([]);
    expect(tree(view({ journal, children: child(500) }))).toEqual([]);
  });
  it('counts earlier children’s usage, per run, and skips a child whose journal is not there', () => {
    const earlier: JournalEntry = {
      ...result('z'),
      usage: { promptTokens: 0, completionTokens: 30, totalTokens: 30 },
    } as JournalEntry;
    const journal = [
      user(),
      earlier,
      used(10),
      spawn,
      { type: 'tool_started', callId: 'b', childSessionId: 'gone' } as JournalEntry,
      started('c'),
    ];
    expect(tree(view({ config: { maxTotalTokens: 100 }, journal, children: child(21) }))).toHaveLength(1);
    expect(tree(view({ config: { maxTotalTokens: 100 }, journal, children: child(10), runStarts: [0, 2] }))).toEqual(
      [],
    );
  });
});
