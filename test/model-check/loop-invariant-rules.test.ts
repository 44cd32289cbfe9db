/**
 * Each rule of `checkLoopInvariants`, one broken journal or event list at a time, and the message
 * a user reads for it (the entry or event it names). The journals are a real run's, edited the
 * way a buggy loop would write them; `loop-invariants.test.ts` has the broad strokes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, JournalEntry } from '../../src/index.js';
import {
  checkLoopInvariants,
  LoopInvariantError,
  type LoopRule,
  type LoopViolation,
  runScript,
  type Script,
  type ScriptRun,
} from '../../src/testing/index.js';
import { chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { ECHO_SCRIPT, ECHO_USAGE as usage } from './echo-script.js';

const script: Script = ECHO_SCRIPT;

let run: ScriptRun;
let failed: ScriptRun;
beforeAll(async () => {
  run = await runScript(script, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 4 } });
  failed = await runScript([{ kind: 'error', text: [], message: 'the model is down' }], {
    config: { cwd: tempWorkspace() },
  });
});

/** The messages of the violations of one rule. */
function messages(
  rule: LoopRule,
  journal: readonly JournalEntry[],
  options: { events?: readonly AgentEvent[]; maxTurns?: number } = {},
): string[] {
  return checkLoopInvariants(journal, options)
    .filter((v: LoopViolation) => v.rule === rule)
    .map((v) => v.message);
}

/** `list` with `items` inserted before index `at`. */
function insert<T>(list: readonly T[], at: number, ...items: T[]): T[] {
  return [...list.slice(0, at), ...items, ...list.slice(at)];
}

function indexOf(journal: readonly JournalEntry[], test: (entry: JournalEntry) => boolean, from = 0): number {
  const index = journal.findIndex((entry, i) => i >= from && test(entry));
  if (index < 0) throw new Error('no such entry');
  return index;
}

const call = (callId: string) => ({ callId, name: 'echo', arguments: { text: callId } });
const move = (from: string, to: string, event = 'MODEL_TURN'): JournalEntry => ({
  type: 'transition',
  from,
  to,
  event,
});
/** A run that asked for one call, `c1`, which has no result yet. */
const asked: JournalEntry[] = [
  { type: 'user_message', content: 'go' },
  { type: 'turn_start' },
  { type: 'usage', usage },
  { type: 'assistant_message', content: '', toolCalls: [call('c1')] },
  move('awaitingModel', 'executingTools'),
];

describe('results follow calls', () => {
  it('names the entry that moves on while calls are owed', () => {
    const journal = run.journal.filter((entry) => entry.type !== 'tool_result');
    const next = indexOf(journal, (e) => e.type === 'turn_start', 2);
    expect(messages('results_follow_calls', journal)).toEqual([
      `entry ${next} (turn_start) arrives while call-1-1, call-1-2 have no result`,
    ]);
  });

  it.each<[string, JournalEntry[], string]>([
    ['another assistant message', [{ type: 'assistant_message', content: 'x' }], 'assistant_message'],
    ['the final answer', [move('executingTools', 'done'), { type: 'agent_end', response: '' }], 'agent_end'],
    [
      'a stop',
      [move('executingTools', 'error'), { type: 'agent_error', reason: 'aborted', message: 'stopped' }],
      'agent_error',
    ],
    ['a user message', [{ type: 'user_message', content: 'more' }], 'user_message'],
  ])('closes the open turn at %s', (_, rest, type) => {
    const index = asked.length + rest.findIndex((entry) => entry.type === type);
    expect(messages('results_follow_calls', [...asked, ...rest])[0]).toBe(
      `entry ${index} (${type}) arrives while c1 have no result`,
    );
  });

  it("does not close the turn at a harness note, which the user's turn does not end", () => {
    const journal: JournalEntry[] = [
      ...asked,
      { type: 'user_message', content: 'note', author: 'harness' },
      { type: 'tool_result', callId: 'c1', content: 'x' },
    ];
    expect(messages('results_follow_calls', journal)).toEqual([]);
  });

  it('reports a journal that ends while calls are owed', () => {
    expect(messages('results_follow_calls', asked)).toEqual(['the journal ends while c1 have no result']);
  });

  it('leaves the calls of a run suspended for approval owed to its resume, and no longer', () => {
    const suspended: JournalEntry[] = [
      ...asked,
      move('executingTools', 'awaitingApproval'),
      { type: 'approval_request', callId: 'c1' },
      { type: 'agent_error', reason: 'suspended', message: 'waiting for approval' },
    ];
    expect(messages('results_follow_calls', suspended)).toEqual([]);
    // A new user message instead of the resume: c1 is still owed, and the next run's call too.
    const abandoned: JournalEntry[] = [
      ...suspended,
      { type: 'user_message', content: 'something else' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: '', toolCalls: [call('c2')] },
    ];
    expect(messages('results_follow_calls', abandoned)).toEqual([
      `entry ${suspended.length} (user_message) arrives while c1 have no result`,
      'the journal ends while c2 have no result',
    ]);
  });

  it('reports the start of a call nobody asked for, and accepts a second start of an owed one', () => {
    const started = indexOf(run.journal, (e) => e.type === 'tool_started');
    const ghost = insert(run.journal, started + 1, { type: 'tool_started', callId: 'ghost' });
    expect(messages('results_follow_calls', ghost)).toEqual([
      `entry ${started + 1} starts 'ghost', which is owed no result`,
    ]);
    const again = insert(run.journal, started + 1, { type: 'tool_started', callId: 'call-1-1' });
    expect(messages('results_follow_calls', again)).toEqual([]);
  });

  it('reports a second result for one call', () => {
    const last = indexOf(run.journal, (e) => e.type === 'tool_result' && e.callId === 'call-1-2');
    const twice = insert(run.journal, last + 1, { type: 'tool_result', callId: 'call-1-1', content: 'again' });
    expect(messages('results_follow_calls', twice)).toEqual([
      `entry ${last + 1} answers 'call-1-1', which is owed no result`,
    ]);
  });
});

describe('transitions', () => {
  it('reports a move from a state the machine was not in', () => {
    const index = indexOf(run.journal, (e) => e.type === 'transition' && e.to === 'budgetCheck');
    const journal = run.journal.map((e, i) => (i === index ? move('executingTools', 'budgetCheck', 'x') : e));
    expect(messages('transitions', journal)).toContain(
      `entry ${index} (transition) leaves 'executingTools' but the machine was in 'observing'`,
    );
  });

  it('reports a move the machine does not have', () => {
    const end = indexOf(run.journal, (e) => e.type === 'agent_end');
    const journal = insert(run.journal, end, move('done', 'awaitingModel', 'x'));
    expect(messages('transitions', journal)).toEqual([
      `entry ${end} (transition): the machine has no move done→awaitingModel`,
    ]);
  });
});

describe('the end follows the state', () => {
  it('reports a final answer without a move to done', () => {
    const end = indexOf(run.journal, (e) => e.type === 'agent_end');
    const journal = run.journal.filter((_, i) => i !== end - 1);
    expect(messages('done_after_text_turn', journal)).toEqual([`entry ${end - 1} (agent_end) without a move to done`]);
  });

  it('reports a final answer that ends a turn that asked for tools, not one after it', () => {
    const settled = indexOf(run.journal, (e) => e.type === 'transition' && e.to === 'observing');
    const journal: JournalEntry[] = [
      ...run.journal.slice(0, settled),
      move('executingTools', 'done', 'TOOL_SETTLED'),
      { type: 'agent_end', response: 'Looking' },
    ];
    expect(messages('done_after_text_turn', journal)).toEqual([
      `entry ${settled + 1} (agent_end) ends a turn that asked for tools`,
    ]);
    // A turn whose assistant message has no calls (an answer sent back) asked for no tools.
    const text: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: 'x' },
      move('awaitingModel', 'done'),
      { type: 'agent_end', response: 'x' },
    ];
    expect(messages('done_after_text_turn', text)).toEqual([]);
  });

  it('reports a stop without a move to error', () => {
    const end = indexOf(run.journal, (e) => e.type === 'agent_end');
    const journal: JournalEntry[] = [
      ...run.journal.slice(0, end - 1),
      { type: 'agent_error', reason: 'aborted', message: 'stopped' },
    ];
    expect(messages('stop_reason', journal)).toEqual([`entry ${end - 1} (agent_error) without a move to error`]);
  });
});

describe('stop reasons', () => {
  const stopped = (reason: string, message: string): JournalEntry[] => {
    const end = indexOf(run.journal, (e) => e.type === 'agent_end');
    return [
      ...run.journal.slice(0, end - 1),
      move('awaitingModel', 'error'),
      { type: 'agent_error', reason, message } as JournalEntry,
    ];
  };

  it('accepts a known reason with a message', () => {
    expect(messages('stop_reason', stopped('aborted', 'stopped by the user'))).toEqual([]);
  });

  it('names an internal error and its message', () => {
    const journal = stopped('internal_error', 'boom');
    expect(messages('stop_reason', journal)).toEqual([
      `entry ${journal.length - 1} (agent_error) has reason 'internal_error': boom`,
    ]);
  });

  it('reports a stop with a blank message', () => {
    const journal = stopped('aborted', '  ');
    expect(messages('stop_reason', journal)).toEqual([`entry ${journal.length - 1} (agent_error) has no message`]);
  });
});

describe('usage per turn', () => {
  it('reports an assistant message recorded before its usage', () => {
    const asking = indexOf(run.journal, (e) => e.type === 'assistant_message');
    const journal = run.journal.slice();
    [journal[asking - 1], journal[asking]] = [journal[asking] as JournalEntry, journal[asking - 1] as JournalEntry];
    expect(messages('usage', journal)).toEqual([
      `entry ${asking - 1} (assistant_message) is not recorded right after its turn's usage`,
    ]);
  });

  it('reports a second usage for one request, and one before any request', () => {
    const second = indexOf(run.journal, (e) => e.type === 'usage', 3);
    const twice = insert(run.journal, second + 1, { type: 'usage', usage });
    expect(messages('usage', twice)).toEqual([`entry ${second + 1} (usage) is not the first usage after a turn_start`]);
    const early = insert(run.journal, 1, { type: 'usage', usage });
    expect(messages('usage', early)).toEqual(['entry 1 (usage) is not the first usage after a turn_start']);
  });

  it('takes a usage right after a move into compacting for the summary request’s own, and no other', () => {
    const second = indexOf(run.journal, (e) => e.type === 'usage', 3);
    const compacting: JournalEntry = { type: 'transition', from: 'awaitingModel', to: 'compacting', event: 'e' };
    const summary = insert(insert(run.journal, second + 1, compacting), second + 2, { type: 'usage', usage });
    expect(messages('usage', summary)).toEqual([]);
    const elsewhere: JournalEntry = { type: 'transition', from: 'awaitingModel', to: 'executingTools', event: 'e' };
    const other = insert(insert(run.journal, second + 1, elsewhere), second + 2, { type: 'usage', usage });
    expect(messages('usage', other)).toEqual([`entry ${second + 2} (usage) is not the first usage after a turn_start`]);
  });
});

describe('turn budget', () => {
  it('allows exactly maxTurns requests and names the run that made more', () => {
    expect(messages('turn_budget', run.journal, { maxTurns: 2 })).toEqual([]);
    const two = [...run.journal, ...run.journal];
    expect(messages('turn_budget', two, { maxTurns: 1 })).toEqual([
      'the run at entry 0 made 2 requests, over maxTurns 1',
      `the run at entry ${run.journal.length} made 2 requests, over maxTurns 1`,
    ]);
  });
});

describe('soft limit', () => {
  /** The run with a warning and its harness note before the second request. */
  const warned = (): JournalEntry[] => {
    const second = indexOf(run.journal, (e) => e.type === 'turn_start', 2);
    return insert(
      run.journal,
      second,
      { type: 'budget_warning', budget: 'turns', used: 0.5 },
      { type: 'user_message', content: 'Answer now.', author: 'harness' },
    );
  };

  it('accepts one warning and its note, once per run', () => {
    expect(messages('soft_limit', warned())).toEqual([]);
    expect(messages('soft_limit', [...warned(), ...warned()])).toEqual([]);
  });

  it('reports a second warning in one run', () => {
    const journal = warned();
    const note = indexOf(journal, (e) => e.type === 'user_message' && e.author === 'harness');
    const twice = insert(journal, note + 1, { type: 'budget_warning', budget: 'cost', used: 0.6 });
    expect(messages('soft_limit', twice)).toEqual([
      `entry ${note + 1} (budget_warning) is a second warning in one run`,
    ]);
  });

  it('reports a harness note without a warning, but not one that sends a rejected answer back', () => {
    const journal = warned().filter((e) => e.type !== 'budget_warning');
    const note = indexOf(journal, (e) => e.type === 'user_message' && e.author === 'harness');
    expect(messages('soft_limit', journal)).toEqual([
      `entry ${note} (user_message): a harness message without a budget warning before it`,
    ]);
    const rejected: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: '{"bad": true}' },
      { type: 'user_message', content: 'That answer does not match the schema.', author: 'harness' },
    ];
    expect(messages('soft_limit', rejected)).toEqual([]);
    // After an assistant message that asked for tools, a note is not a rejected answer's.
    const afterCalls = insert(asked, 4, { type: 'user_message', content: 'note', author: 'harness' });
    expect(messages('soft_limit', afterCalls)).toEqual([
      'entry 4 (user_message): a harness message without a budget warning before it',
    ]);
  });

  it('reports a tool that ran after tools were withheld; their error answers are fine', () => {
    const first = indexOf(run.journal, (e) => e.type === 'tool_started');
    const early = insert(run.journal, first, { type: 'budget_warning', budget: 'turns', used: 0.5 });
    const results = early.flatMap((e, i) => (e.type === 'tool_result' ? [i] : []));
    expect(messages('soft_limit', early)).toEqual(
      results.map((i) => `entry ${i} (tool_result): a tool ran after tools were withheld`),
    );
    const withheld = early.map((e) =>
      e.type === 'tool_result' ? { ...e, content: 'Error: tools are withheld after the budget warning' } : e,
    );
    expect(messages('soft_limit', withheld)).toEqual([]);
  });
});

describe('events', () => {
  const events = () => run.events.slice();
  const indexOfEvent = (list: readonly AgentEvent[], test: (event: AgentEvent) => boolean) =>
    list.findIndex((event) => test(event));

  it('reports a run that does not start with agent_start, or has no end', () => {
    expect(messages('event_shape', run.journal, { events: events().slice(1) })).toEqual([
      'the run starts with event 0 (text_delta), not agent_start',
    ]);
    expect(messages('event_shape', run.journal, { events: [] })).toEqual([
      'the run starts with event 0 (missing), not agent_start',
      '0 agent_end/agent_error events, expected exactly 1',
    ]);
  });

  it('reports two ends, and an end that is not last', () => {
    const end = run.events.at(-1) as AgentEvent;
    expect(messages('event_shape', run.journal, { events: [...events(), end] })).toEqual([
      '2 agent_end/agent_error events, expected exactly 1',
    ]);
    const delta = run.events[1] as AgentEvent;
    expect(messages('event_shape', run.journal, { events: [...events(), delta] })).toEqual([
      `event ${run.events.length - 1} (agent_end) is not the last event`,
    ]);
  });

  it('reports text left incomplete when tools are announced or the run ends', () => {
    const complete = indexOfEvent(run.events, (e) => e.type === 'text_complete');
    const noComplete = events().filter((_, i) => i !== complete);
    expect(messages('text_order', run.journal, { events: noComplete })).toEqual([
      `event ${complete} (tool_call_start) while text "Looking" was never completed`,
    ]);
    const last = run.events.length - 2;
    const noAnswer = events().filter((_, i) => i !== last);
    expect(messages('text_order', run.journal, { events: noAnswer })).toEqual([
      `event ${last} (agent_end) while text "It is done." was never completed`,
      'agent_end answers "It is done." but the last text was ""',
    ]);
  });

  it("does not take the text before a turn's tools for the final answer", () => {
    // The answer turn streamed no text: the answer is empty, not the first turn's "Looking".
    const list = events().filter((e, i) => i < 7 || e.type === 'agent_end');
    const end = list.length - 1;
    list[end] = {
      ...(list[end] as AgentEvent<'agent_end'>),
      data: { ...(list[end] as AgentEvent<'agent_end'>).data, response: '' },
    };
    expect(messages('text_order', run.journal, { events: list })).toEqual([]);
    list[end] = run.events.at(-1) as AgentEvent;
    expect(messages('text_order', run.journal, { events: list })).toEqual([
      'agent_end answers "It is done." but the last text was ""',
    ]);
  });

  it('reports a completion without an announcement, and an announcement never completed', () => {
    const start = indexOfEvent(run.events, (e) => e.type === 'tool_call_start');
    expect(messages('tool_events', run.journal, { events: events().filter((_, i) => i !== start) })).toEqual([
      `event ${start} (tool_call_complete) for 'call-1-1' without a tool_call_start`,
    ]);
    expect(messages('tool_events', run.journal, { events: events().filter((_, i) => i !== start + 1) })).toEqual([
      "'call-1-1' was announced but never completed",
    ]);
  });

  it('reports a result announced twice, the second not recorded', () => {
    const complete = run.events[indexOfEvent(run.events, (e) => e.type === 'tool_call_complete')] as AgentEvent;
    const list = insert(events(), run.events.length - 1, complete);
    const at = run.events.length - 1;
    expect(messages('tool_events', run.journal, { events: list })).toEqual([
      `event ${at} (tool_call_complete) for 'call-1-1' without a tool_call_start`,
      `event ${at} (tool_call_complete): the result of 'call-1-1' is not the tool message recorded for it`,
    ]);
  });

  it("matches an error result with the journal's `Error: ` message", () => {
    const journal = run.journal.map((e) =>
      e.type === 'tool_result' && e.callId === 'call-1-1' ? { ...e, content: 'Error: refused' } : e,
    );
    const failing = (error: string | undefined) =>
      events().map((e) =>
        e.type === 'tool_call_complete' && e.data.callId === 'call-1-1'
          ? {
              ...e,
              data: { callId: 'call-1-1', name: 'echo', success: false, ...(error === undefined ? {} : { error }) },
            }
          : e,
      ) as AgentEvent[];
    expect(messages('tool_events', journal, { events: failing('refused') })).toEqual([]);
    expect(messages('tool_events', journal, { events: failing('other') })).toHaveLength(1);
    const unknown = run.journal.map((e) =>
      e.type === 'tool_result' && e.callId === 'call-1-1' ? { ...e, content: 'Error: unknown error' } : e,
    );
    expect(messages('tool_events', unknown, { events: failing(undefined) })).toEqual([]);
  });

  it('reports argument deltas of a call after its announcement', () => {
    const start = indexOfEvent(run.events, (e) => e.type === 'tool_call_start');
    const delta = { type: 'tool_call_delta', data: { callId: 'call-1-1', delta: '{}' } } as unknown as AgentEvent;
    expect(messages('tool_events', run.journal, { events: insert(events(), start, delta) })).toEqual([]);
    expect(messages('tool_events', run.journal, { events: insert(events(), start + 1, delta) })).toEqual([
      `event ${start + 1} (tool_call_delta) for call call-1-1 after its tool_call_start`,
    ]);
  });

  it('reports an end event that does not carry what the journal recorded', () => {
    const end = run.events.at(-1) as AgentEvent<'agent_end'>;
    const ending = (data: Partial<AgentEvent<'agent_end'>['data']>) => [
      ...run.events.slice(0, -1),
      { ...end, data: { ...end.data, ...data } } as AgentEvent,
    ];
    expect(messages('end_data', run.journal, { events: ending({}) })).toEqual([]);
    expect(messages('end_data', run.journal, { events: ending({ response: 'other' }) })).toEqual([
      'agent_end does not match the journal',
    ]);
    expect(messages('end_data', run.journal, { events: ending({ turnCount: 3 }) })).toEqual([
      "agent_end turnCount 3 is not the journal's 2",
    ]);
    expect(messages('end_data', run.journal, { events: ending({ usage: { ...usage, totalTokens: 1 } }) })).toEqual([
      'agent_end usage {"promptTokens":3,"completionTokens":2,"totalTokens":1} is not the journal\'s sum {"promptTokens":6,"completionTokens":4,"totalTokens":10}',
    ]);
  });

  it('reports a stop event that does not carry what the journal recorded', () => {
    expect(failed.journal.at(-1)?.type).toBe('agent_error');
    expect(messages('end_data', failed.journal, { events: failed.events })).toEqual([]);
    const stop = failed.events.at(-1) as AgentEvent<'agent_error'>;
    for (const data of [{ reason: 'aborted' }, { message: 'other' }]) {
      const list = [...failed.events.slice(0, -1), { ...stop, data: { ...stop.data, ...data } } as AgentEvent];
      expect(messages('end_data', failed.journal, { events: list })).toEqual([
        'agent_error does not match the journal',
      ]);
    }
    // The run answered, but the events say it stopped.
    expect(messages('end_data', run.journal, { events: [...run.events.slice(0, -1), stop] })).toEqual([
      'agent_error does not match the journal',
    ]);
  });

  it('leaves events cut before their end to the shape rule, not the end data', () => {
    const cut = run.events.slice(0, -1);
    expect(messages('end_data', run.journal, { events: cut })).toEqual([]);
    expect(messages('event_shape', run.journal, { events: cut })).toEqual([
      '0 agent_end/agent_error events, expected exactly 1',
    ]);
  });

  it('reports events for an empty journal, and warnings the journal does not have', () => {
    expect(messages('event_shape', [], { events: run.events })).toEqual([
      'events were given but the journal has no run',
    ]);
    const warning = { type: 'budget_warning', data: { budget: 'turns', used: 0.5 } } as unknown as AgentEvent;
    expect(messages('event_shape', run.journal, { events: insert(events(), 1, warning) })).toEqual([
      '1 budget_warning events for 0 in the journal',
    ]);
  });

  it('checks no events of a journal that cannot be replayed', () => {
    const journal = [...run.journal, { type: 'mystery' }] as unknown as JournalEntry[];
    const rules = checkLoopInvariants(journal, { events: [] }).map((v) => v.rule);
    expect(rules).toContain('replay');
    expect(rules).not.toContain('event_shape');
  });
});

describe('LoopInvariantError', () => {
  it('lists each violation on its own line, with the context only when given', () => {
    const violations: LoopViolation[] = [
      { rule: 'usage', message: 'one' },
      { rule: 'replay', message: 'two' },
    ];
    expect(new LoopInvariantError(violations).message).toBe(
      'loop invariants broken:\n  - [usage] one\n  - [replay] two',
    );
    expect(new LoopInvariantError(violations, 'script: x').message).toBe(
      'loop invariants broken:\n  - [usage] one\n  - [replay] two\nscript: x',
    );
    expect(new LoopInvariantError(violations).name).toBe('LoopInvariantError');
  });
});
