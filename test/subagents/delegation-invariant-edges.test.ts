// The edges of checkDelegationInvariants, on hand-written session trees: each delegation rule
// broken on its own (the exact violation, message included), and the trees that must pass
// (usage compared field by field, answers made without the child, a child's budget stop left
// unanswered while the parent is cut off or stopped). Hand-written journals break loop
// invariants of their own (no turns, no transitions): `delegation` leaves the `child_loop`
// violations out, and the last test checks those on their own.
import { describe, expect, it } from 'vitest';
import type { JournalEntry, TokenUsage } from '../../src/index.js';
import type { SessionTree } from '../../src/subagents.js';
import { checkDelegationInvariants, checkLoopInvariants } from '../../src/testing/index.js';

const usage = (promptTokens: number, completionTokens: number, totalTokens: number): TokenUsage => ({
  promptTokens,
  completionTokens,
  totalTokens,
});

/** The child's usage in most trees: two requests, 11 + 7 = 18 tokens. */
const CHILD_USAGE = usage(11, 7, 18);
const childRequests: JournalEntry[] = [
  { type: 'usage', usage: usage(10, 5, 15) },
  { type: 'usage', usage: usage(1, 2, 3) },
];

/** A parent that calls `researcher` as `r1` (child `c1`) and gets `content` back. */
function parent(content: string | undefined, resultUsage?: TokenUsage, end?: JournalEntry): JournalEntry[] {
  const entries: JournalEntry[] = [
    { type: 'user_message', content: 'write the report' },
    { type: 'turn_start' },
    { type: 'assistant_message', content: '', toolCalls: [{ callId: 'r1', name: 'researcher', arguments: {} }] },
    { type: 'tool_started', callId: 'r1', childSessionId: 'c1' },
  ];
  if (content !== undefined)
    entries.push(
      resultUsage === undefined
        ? { type: 'tool_result', callId: 'r1', content }
        : { type: 'tool_result', callId: 'r1', content, usage: resultUsage },
    );
  if (end !== undefined) entries.push(end);
  return entries;
}

const ended = (response: string): JournalEntry => ({ type: 'agent_end', response });
const stopped = (reason: string, message: string): JournalEntry =>
  ({ type: 'agent_error', reason, message }) as JournalEntry;

function tree(journals: Record<string, readonly JournalEntry[]>): SessionTree {
  return { id: 'lead', journals: new Map(Object.entries(journals)), missing: [] };
}

/** The delegation violations of a tree (its sessions' own loop violations left out). */
const delegation = (journals: Record<string, readonly JournalEntry[]>) =>
  checkDelegationInvariants(tree(journals)).filter((violation) => violation.rule !== 'child_loop');

const violation = (rule: string, message: string, session = 'lead') => ({ rule, session, message });

describe('checkDelegationInvariants: trees that keep the delegation rules', () => {
  it("passes a call answered with the child's answer and its whole usage", () => {
    expect(
      delegation({ lead: parent('done', CHILD_USAGE, ended('report')), c1: [...childRequests, ended('done')] }),
    ).toEqual([]);
  });

  it("passes a child's error passed on as `Error: <reason>: <message>`", () => {
    const child = [...childRequests, stopped('model_error', 'the model failed')];
    expect(delegation({ lead: parent('Error: model_error: the model failed', CHILD_USAGE), c1: child })).toEqual([]);
  });

  it("counts a child's own children (results with usage) and only what follows its last reset", () => {
    const child: JournalEntry[] = [
      { type: 'usage', usage: usage(100, 100, 200) },
      { type: 'reset' },
      { type: 'usage', usage: usage(10, 5, 15) },
      { type: 'tool_started', callId: 'e1' },
      { type: 'tool_result', callId: 'e1', content: 'effect done' },
      { type: 'tool_started', callId: 'a1', childSessionId: 'g1' },
      { type: 'tool_result', callId: 'a1', content: 'analysis', usage: usage(1, 2, 3) },
      ended('done'),
    ];
    const grandchild = [{ type: 'usage', usage: usage(1, 2, 3) } as JournalEntry, ended('analysis')];
    expect(delegation({ lead: parent('done', CHILD_USAGE), c1: child, g1: grandchild })).toEqual([]);
  });

  it("passes a child's answer that the parent got truncated", () => {
    const answer = 'x'.repeat(50);
    const got = `${'x'.repeat(20)}\n[truncated 30 characters]`;
    expect(delegation({ lead: parent(got, CHILD_USAGE), c1: [...childRequests, ended(answer)] })).toEqual([]);
  });

  it('passes calls answered without their child: aborted, timed out, refused for depth', () => {
    for (const content of [
      "Error: Tool 'researcher' was aborted: the run was stopped",
      "Error: Tool 'researcher' timed out after 100 ms",
      "Error: Tool '' was aborted",
      "Error: agent_depth: agent 'researcher' would run at depth 3, deeper than maxAgentDepth 2",
    ]) {
      // No usage either: the child never ended, or never started (no journal).
      expect(delegation({ lead: parent(content), c1: [...childRequests] }), content).toEqual([]);
      expect(delegation({ lead: parent(content) }), content).toEqual([]);
    }
  });

  it("passes a child's budget stop passed on as the call's error", () => {
    const child = [...childRequests, stopped('turn_budget', 'used 2 of 2 turns')];
    expect(delegation({ lead: parent('Error: turn_budget: used 2 of 2 turns', CHILD_USAGE), c1: child })).toEqual([]);
  });

  it("passes a child's budget stop left unanswered while the parent is cut off or stopped", () => {
    const child = [...childRequests, stopped('token_budget', 'used 18 of 10 tokens')];
    expect(delegation({ lead: parent(undefined), c1: child })).toEqual([]);
    expect(delegation({ lead: parent(undefined, undefined, stopped('aborted', 'stopped')), c1: child })).toEqual([]);
    expect(
      delegation({ lead: parent(undefined, undefined, stopped('token_budget', 'used 40 of 30')), c1: child }),
    ).toEqual([]);
  });

  it('passes an unanswered call whose child ended with an answer or a stop that is no budget', () => {
    const answered = [...childRequests, ended('done')];
    const failed = [...childRequests, stopped('model_error', 'the model failed')];
    expect(delegation({ lead: parent(undefined, undefined, ended('report')), c1: answered })).toEqual([]);
    expect(delegation({ lead: parent(undefined, undefined, ended('report')), c1: failed })).toEqual([]);
    expect(delegation({ lead: parent(undefined, undefined, ended('report')) })).toEqual([]);
  });

  it('ignores tool calls that ran no child', () => {
    const lead: JournalEntry[] = [
      { type: 'tool_started', callId: 'e1' },
      { type: 'tool_result', callId: 'e1', content: 'effect done' },
      ended('report'),
    ];
    expect(delegation({ lead })).toEqual([]);
  });

  it("reads a call's last result and its last child", () => {
    const lead: JournalEntry[] = [
      { type: 'tool_started', callId: 'r1', childSessionId: 'old' },
      { type: 'tool_result', callId: 'r1', content: 'stale' },
      { type: 'tool_started', callId: 'r1', childSessionId: 'c1' },
      { type: 'tool_result', callId: 'r1', content: 'done', usage: CHILD_USAGE },
    ];
    expect(delegation({ lead, c1: [...childRequests, ended('done')] })).toEqual([]);
  });
});

describe('checkDelegationInvariants: each rule broken', () => {
  it('child_answered: a call answered while its child has no journal, or never ended', () => {
    expect(delegation({ lead: parent('done', CHILD_USAGE) })).toEqual([
      violation('child_answered', "call 'r1' was answered, but its child 'c1' has no journal"),
    ]);
    const never = violation('child_answered', "call 'r1' was answered, but its child 'c1' never ended");
    expect(delegation({ lead: parent('done', CHILD_USAGE), c1: [...childRequests] })).toEqual([never]);
    expect(delegation({ lead: parent('done', CHILD_USAGE), c1: [] })).toEqual([never]);
  });

  it('child_answered: errors that only look like an answer made without the child', () => {
    const never = violation('child_answered', "call 'r1' was answered, but its child 'c1' never ended");
    for (const content of [
      "Error: Tool 'researcher' failed: boom",
      "Error: Tool 'researcher' was refused",
      " Error: Tool 'researcher' was aborted",
      "Tool 'researcher' was aborted",
      "Error: Tool 'it's' timed out",
      'Error: agent_depth',
      'Error: model_error: agent_depth: too deep',
    ])
      expect(delegation({ lead: parent(content), c1: [...childRequests] }), content).toEqual([never]);
  });

  it("child_result: the parent's result is not the child's answer (80 characters of each shown)", () => {
    expect(delegation({ lead: parent('made up', CHILD_USAGE), c1: [...childRequests, ended('done')] })).toEqual([
      violation('child_result', `call 'r1': the parent got "made up", child 'c1' ended with "done"`),
    ]);
    const long = (c: string) => c.repeat(100);
    expect(delegation({ lead: parent(long('a'), CHILD_USAGE), c1: [...childRequests, ended(long('b'))] })).toEqual([
      violation(
        'child_result',
        `call 'r1': the parent got "${'a'.repeat(80)}", child 'c1' ended with "${'b'.repeat(80)}"`,
      ),
    ]);
  });

  it("child_result: the parent's result is not the child's error", () => {
    const child = [...childRequests, stopped('model_error', 'the model failed')];
    // A stop that is no budget is no child_budget, even passed off as an answer.
    expect(delegation({ lead: parent('all fine', CHILD_USAGE), c1: child })).toEqual([
      violation(
        'child_result',
        `call 'r1': the parent got "all fine", child 'c1' ended with "Error: model_error: the model failed"`,
      ),
    ]);
    expect(delegation({ lead: parent('Error: model_error: other', CHILD_USAGE), c1: child })).toEqual([
      violation(
        'child_result',
        `call 'r1': the parent got "Error: model_error: other", child 'c1' ended with "Error: model_error: the model failed"`,
      ),
    ]);
  });

  it("child_budget: a child's budget stop passed off as an answer", () => {
    const child = [...childRequests, stopped('cost_budget', 'spent 2 of 1 USD')];
    expect(delegation({ lead: parent('all fine', CHILD_USAGE), c1: child })).toEqual([
      violation('child_budget', `call 'r1': child 'c1' stopped with cost_budget, but the parent got "all fine"`),
    ]);
    expect(delegation({ lead: parent('Error: turn_budget: spent', CHILD_USAGE), c1: child })).toEqual([
      violation(
        'child_budget',
        `call 'r1': child 'c1' stopped with cost_budget, but the parent got "Error: turn_budget: spent"`,
      ),
    ]);
    expect(delegation({ lead: parent('z'.repeat(100), CHILD_USAGE), c1: child })).toEqual([
      violation(
        'child_budget',
        `call 'r1': child 'c1' stopped with cost_budget, but the parent got "${'z'.repeat(80)}"`,
      ),
    ]);
  });

  it("child_result, not child_budget: the child's budget error with another message", () => {
    const child = [...childRequests, stopped('time_budget', 'ran 2 of 1 s')];
    expect(delegation({ lead: parent('Error: time_budget: ran 5 of 1 s', CHILD_USAGE), c1: child })).toEqual([
      violation(
        'child_result',
        `call 'r1': the parent got "Error: time_budget: ran 5 of 1 s", child 'c1' ended with "Error: time_budget: ran 2 of 1 s"`,
      ),
    ]);
  });

  it("child_budget: the parent answered its task without the call's result after the child's budget stop", () => {
    for (const reason of ['turn_budget', 'cost_budget', 'token_budget', 'time_budget']) {
      const child = [...childRequests, stopped(reason, 'over')];
      expect(delegation({ lead: parent(undefined, undefined, ended('report')), c1: child })).toEqual([
        violation(
          'child_budget',
          `call 'r1': child 'c1' stopped with ${reason}, but the parent answered without the call's result`,
        ),
      ]);
    }
  });

  it('child_usage: each field of the usage compared, a missing usage counted as 0', () => {
    const child = [...childRequests, ended('done')];
    const counted = (total: number) =>
      violation('child_usage', `call 'r1': the parent counted ${total} tokens for child 'c1', which used 18`);
    expect(delegation({ lead: parent('done', usage(12, 7, 18)), c1: child })).toEqual([counted(18)]);
    expect(delegation({ lead: parent('done', usage(11, 6, 18)), c1: child })).toEqual([counted(18)]);
    expect(delegation({ lead: parent('done', usage(11, 7, 17)), c1: child })).toEqual([counted(17)]);
    expect(delegation({ lead: parent('done'), c1: child })).toEqual([counted(0)]);
  });

  it("child_usage: a child's own children and a reset counted", () => {
    const child: JournalEntry[] = [
      { type: 'usage', usage: usage(100, 100, 200) },
      { type: 'reset' },
      { type: 'usage', usage: usage(10, 5, 15) },
      { type: 'tool_result', callId: 'a1', content: 'analysis', usage: usage(1, 2, 3) },
      ended('done'),
    ];
    expect(delegation({ lead: parent('done', usage(10, 5, 15)), c1: child })).toEqual([
      violation('child_usage', "call 'r1': the parent counted 15 tokens for child 'c1', which used 18"),
    ]);
  });

  it('reports the violations of each parent of the tree under its own id', () => {
    const researcher = [...parent('Error: agent_depth: too deep'), ...childRequests, ended('analysis')];
    const lead = parent('analysis', CHILD_USAGE).map((entry) =>
      entry.type === 'tool_started' ? { ...entry, childSessionId: 'r' } : entry,
    );
    expect(delegation({ lead, r: researcher, c1: [ended('x')] })).toEqual([]);
    expect(delegation({ lead, r: parent('made up'), c1: [ended('done')] })).toEqual([
      violation('child_answered', "call 'r1' was answered, but its child 'r' never ended"),
      violation('child_result', `call 'r1': the parent got "made up", child 'c1' ended with "done"`, 'r'),
      violation('child_usage', "call 'r1': the parent counted 0 tokens for child 'c1', which used 0", 'r'),
    ]);
  });
});

describe('checkDelegationInvariants: the loop invariants of each session', () => {
  it("reports each session's loop violations as child_loop, under its id, with the loop rule", () => {
    const lead = parent('done', CHILD_USAGE, ended('report'));
    const child = [...childRequests, ended('done')];
    const expected = [
      ...checkLoopInvariants(lead).map((loop) => violation('child_loop', `[${loop.rule}] ${loop.message}`)),
      ...checkLoopInvariants(child).map((loop) => violation('child_loop', `[${loop.rule}] ${loop.message}`, 'c1')),
    ];
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.some((v) => v.session === 'c1')).toBe(true);
    expect(checkDelegationInvariants(tree({ lead, c1: child }))).toEqual(expected);
  });
});
