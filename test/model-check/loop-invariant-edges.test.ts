/**
 * Edges of `checkLoopInvariants` a user meets: the configuration it replays with, journals that
 * do not replay as they are, runs with a soft-limit warning, events cut from their journal, and
 * tool results the events show differently from the journal.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent, Config, type JournalEntry, Session } from '../../src/index.js';
import { errorMessage } from '../../src/machine.js';
import { checkLoopInvariants, type LoopRule, runScript, type ScriptRun } from '../../src/testing/index.js';
import { chaosTools } from '../support/chaos-tools.js';
import { tempWorkspace } from '../support/workspace.js';
import { ECHO_SCRIPT, ECHO_USAGE as usage } from './echo-script.js';

let run: ScriptRun;
let warned: ScriptRun;
beforeAll(async () => {
  run = await runScript(ECHO_SCRIPT, { tools: chaosTools(), config: { cwd: tempWorkspace(), maxTurns: 4 } });
  warned = await runScript(ECHO_SCRIPT, {
    tools: chaosTools(),
    config: { cwd: tempWorkspace(), maxTurns: 2, softLimitRatio: 0.5 },
  });
});

const of = (rule: LoopRule, journal: readonly JournalEntry[], options = {}) =>
  checkLoopInvariants(journal, options)
    .filter((v) => v.rule === rule)
    .map((v) => v.message);

describe('the replay rule', () => {
  it('reports an entry that replays differently (a field the journal check drops)', () => {
    const journal = run.journal.map((e, i) => (i === 1 ? ({ ...e, extra: 1 } as unknown as JournalEntry) : e));
    expect(checkLoopInvariants(journal)).toEqual([
      { rule: 'replay', message: 'Session.replay does not reproduce the journal' },
    ]);
  });

  it("says why a journal cannot be replayed, in Session.replay's words", () => {
    const journal = [...run.journal, { type: 'mystery' }] as unknown as JournalEntry[];
    let why = '';
    try {
      Session.replay(journal);
    } catch (error) {
      why = errorMessage(error);
    }
    expect(why).not.toBe('');
    expect(of('replay', journal)).toEqual([`the journal cannot be replayed: ${why}`]);
  });

  it('replays with the given configuration: a compaction counts the system prompt', () => {
    const ask = (callId: string): JournalEntry[] => [
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'assistant_message', content: '', toolCalls: [{ callId, name: 'echo', arguments: {} }] },
      { type: 'tool_result', callId, content: 'out' },
    ];
    // With the system prompt, message 3 is the first result; without it, an assistant message.
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      ...ask('c1'),
      ...ask('c2'),
      {
        type: 'compaction',
        strategy: 'elide',
        from: 3,
        to: 4,
        messages: [{ role: 'tool', callId: 'c1', content: '[elided]' }],
        tokensBefore: 9,
        tokensAfter: 1,
      },
    ];
    expect(of('replay', journal, { config: new Config({ systemPrompt: 'Be brief.' }) })).toEqual([]);
    expect(of('replay', journal)).toHaveLength(1);
  });
});

describe('the run shape', () => {
  it('names the entry of the run a journal ends in, and checks events cut from it without failing', () => {
    const cut = run.journal.slice(0, -1);
    const expected = [
      {
        rule: 'run_shape',
        message: 'the journal ends in a run without agent_end or agent_error (from entry 0)',
      },
    ];
    expect(checkLoopInvariants(cut)).toEqual(expected);
    expect(checkLoopInvariants(cut, { events: run.events })).toEqual(expected);
  });
});

describe('events', () => {
  it('counts the soft-limit warning of the journal against the events', () => {
    expect(warned.journal.filter((e) => e.type === 'budget_warning')).toHaveLength(1);
    expect(checkLoopInvariants(warned.journal, { events: warned.events, maxTurns: 2 })).toEqual([]);
    const unwarned = warned.events.filter((e) => e.type !== 'budget_warning');
    expect(of('event_shape', warned.journal, { events: unwarned })).toEqual([
      '0 budget_warning events for 1 in the journal',
    ]);
  });

  it('names a text_complete that is not what its deltas said', () => {
    const at = run.events.findIndex((e) => e.type === 'text_complete');
    const events = run.events.map((e, i) =>
      i === at ? ({ ...e, data: { ...e.data, content: 'Lookin' } } as AgentEvent) : e,
    );
    expect(of('text_order', run.journal, { events })).toEqual([
      `event ${at} (text_complete) says "Lookin" but the deltas said "Looking"`,
    ]);
  });

  it('accepts an empty answer with no text at all', () => {
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage },
      { type: 'agent_end', response: '' },
    ];
    const events = [
      { type: 'agent_start', data: {} },
      { type: 'agent_end', data: { response: '', usage, turnCount: 1 } },
    ] as unknown as AgentEvent[];
    expect(of('text_order', journal, { events })).toEqual([]);
    expect(of('end_data', journal, { events })).toEqual([]);
  });

  it('matches a successful result without output with an empty tool message', () => {
    const journal = run.journal.map((e) =>
      e.type === 'tool_result' && e.callId === 'call-1-1' ? { ...e, content: '' } : e,
    );
    const events = run.events.map((e) =>
      e.type === 'tool_call_complete' && e.data.callId === 'call-1-1'
        ? ({ ...e, data: { callId: 'call-1-1', name: 'echo', success: true } } as AgentEvent)
        : e,
    );
    expect(of('tool_events', journal, { events })).toEqual([]);
  });

  it('reports a result the events show as "undefined", whatever else the journal holds for the call', () => {
    const at = run.events.findIndex((e) => e.type === 'tool_call_complete' && e.data.callId === 'call-1-1');
    const events = run.events.map((e, i) =>
      i === at ? ({ ...e, data: { ...e.data, output: 'undefined' } } as AgentEvent) : e,
    );
    expect(run.journal.some((e) => e.type === 'tool_started' && e.callId === 'call-1-1')).toBe(true);
    expect(of('tool_events', run.journal, { events })).toEqual([
      `event ${at} (tool_call_complete): the result of 'call-1-1' is not the tool message recorded for it`,
    ]);
  });
});
