import { describe, expect, it } from 'vitest';
import { Budget, type JournalEntry, ScriptedClient, StreamEvent } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { TimelineBuilder } from '../../src/inspector/timeline-builder.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { HOSTILE_OUTPUT, lookupTool, RECORDED_CALLS, recordedScript, recordRun } from './support/recorded-run.js';

const tools = (steps: readonly TimelineStep[]) => steps.filter((s) => s.kind === 'tool_call');

describe('TimelineBuilder over a saved journal', () => {
  it('has one tool_call step per call, with arguments, result, success and duration', async () => {
    const { journal, timings } = await recordRun();
    const steps = InspectorFeed.fromJournal(journal, { title: 'run', timings }).snapshot().steps;
    expect(tools(steps).map((s) => s.tool?.callId)).toEqual(RECORDED_CALLS);
    const [alpha, html, fail] = tools(steps);
    expect(alpha?.tool).toMatchObject({
      name: 'lookup',
      arguments: '{"q":"alpha"}',
      status: 'ok',
      result: 'alpha: a word',
    });
    expect(html?.tool?.result).toBe(HOSTILE_OUTPUT);
    expect(fail?.tool).toMatchObject({ status: 'error', result: "Error: no entry for 'fail'" });
    for (const [i, step] of tools(steps).entries()) expect(step.tool?.durationMs).toBe(timings[i]?.durationMs);
    expect(tools(steps).every((s) => s.state === 'executingTools')).toBe(true);
  });

  it('shows no duration when there are no timings', async () => {
    const { journal } = await recordRun();
    const steps = InspectorFeed.fromJournal(journal, { title: 'run' }).snapshot().steps;
    expect(tools(steps).map((s) => s.tool?.durationMs)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('follows the machine: each transition step is in its target state; the run starts in the initial state', async () => {
    const { journal } = await recordRun();
    const steps = InspectorFeed.fromJournal(journal, { title: 'run' }).snapshot().steps;
    const transitions = journal.filter((e) => e.type === 'transition');
    expect(steps.filter((s) => s.kind === 'transition').map((s) => [s.from, s.state])).toEqual(
      transitions.map((t) => [t.from, t.to]),
    );
    expect(steps[0]).toMatchObject({ kind: 'user', state: null });
    expect(steps[1]).toMatchObject({ kind: 'turn', state: 'awaitingModel', turn: 1 });
    expect(steps.at(-1)).toMatchObject({ kind: 'answer', state: 'done', text: 'Alpha and gamma are words.' });
    expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
  });

  it('carries usage and cost so far at the budget rates, and the budget warning', async () => {
    const { journal } = await recordRun();
    const budget = new Budget({ inputRatePer1k: 1, outputRatePer1k: 2 });
    const steps = InspectorFeed.fromJournal(journal, { title: 'run', budget }).snapshot().steps;
    const last = steps.at(-1);
    expect(last?.usage).toEqual({ promptTokens: 280, completionTokens: 48, totalTokens: 328 });
    expect(last?.cost).toBeCloseTo((280 * 1 + 48 * 2) / 1000, 12);
    expect(steps.find((s) => s.kind === 'turn' && s.turn === 2)?.usage.totalTokens).toBe(120);
    expect(steps.find((s) => s.kind === 'budget_warning')?.title).toBe('budget warning: turns 60% used');
  });

  it("keeps a result recorded before its call's step exists (a resumed run)", () => {
    const builder = new TimelineBuilder();
    const calls = [
      { callId: 'c1', name: 'step', arguments: { n: 1 } },
      { callId: 'c2', name: 'step', arguments: { n: 2 } },
    ];
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'do two steps' },
      { type: 'turn_start' },
      { type: 'assistant_message', content: '', toolCalls: calls },
      { type: 'tool_result', callId: 'c1', content: 'did 1' },
      { type: 'transition', from: 'awaitingModel', to: 'executingTools', event: 'xstate.init' },
      { type: 'transition', from: 'executingTools', to: 'observing', event: 'TOOL_SETTLED' },
      { type: 'tool_result', callId: 'c2', content: 'did 2' },
    ];
    for (const entry of journal) builder.addEntry(entry);
    expect(tools(builder.steps).map((s) => [s.tool?.callId, s.tool?.status, s.tool?.result])).toEqual([
      ['c1', 'ok', 'did 1'],
      ['c2', 'ok', 'did 2'],
    ]);
  });

  it("names a tool's source (an MCP server) from the write-ahead entry, and a built-in tool has none", () => {
    const builder = new TimelineBuilder();
    const calls = [
      { callId: 'm1', name: 'read_text_file', arguments: { path: 'a' } },
      { callId: 'b1', name: 'read_file', arguments: { path: 'b' } },
    ];
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'read two files' },
      { type: 'turn_start' },
      { type: 'assistant_message', content: '', toolCalls: calls },
      { type: 'transition', from: 'awaitingModel', to: 'executingTools', event: 'xstate.done.actor.model' },
      { type: 'tool_started', callId: 'm1', source: 'mcp:files' },
      { type: 'tool_started', callId: 'b1' },
      { type: 'tool_result', callId: 'm1', content: 'A' },
      { type: 'tool_result', callId: 'b1', content: 'B' },
    ];
    for (const entry of journal) builder.addEntry(entry);
    expect(tools(builder.steps).map((s) => [s.tool?.callId, s.tool?.source])).toEqual([
      ['m1', 'mcp:files'],
      ['b1', undefined],
    ]);
  });

  it('shows errors, resets and harness notes', () => {
    const builder = new TimelineBuilder();
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'hi' },
      { type: 'turn_start' },
      { type: 'transition', from: 'awaitingModel', to: 'error', event: 'xstate.error.actor.model' },
      { type: 'agent_error', reason: 'model_error', message: 'boom' },
      { type: 'reset' },
      { type: 'user_message', content: 'note', author: 'harness' },
    ];
    const steps = journal.flatMap((entry) => builder.addEntry(entry));
    expect(steps.map((s) => [s.kind, s.state])).toEqual([
      ['user', null],
      ['turn', 'awaitingModel'],
      ['transition', 'error'],
      ['error', 'error'],
      ['reset', null],
      ['harness_note', null],
    ]);
    expect(steps[2]?.event).toBe('error(model)');
    expect(steps[3]).toMatchObject({ title: 'stopped: model_error', text: 'boom' });
  });
});

describe('InspectorFeed.ofAgent (live)', () => {
  it('ends with the same timeline as the saved journal with its timings', async () => {
    const { agent, session } = makeAgent(new ScriptedClient(recordedScript()), [lookupTool], {
      cwd: process.cwd(),
      budget: { maxTurns: 5, softLimitRatio: 0.6 },
    });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'run');
    const durations: number[] = [];
    feed.subscribe((steps) => {
      for (const step of steps) if (step.tool?.durationMs !== undefined) durations.push(step.tool.durationMs);
    });
    await collect(agent.run('Look up alpha, html, fail and gamma.'));
    detach();
    const timings = tools(feed.snapshot().steps).map((s) => ({
      callId: s.tool?.callId ?? '',
      durationMs: s.tool?.durationMs ?? -1,
    }));
    const saved = InspectorFeed.fromJournal(session.journal, { title: 'run', budget: agent.config.budget, timings });
    expect(feed.snapshot().steps).toEqual(saved.snapshot().steps);
    expect(feed.snapshot().live).toBe(true);
    expect(durations.length).toBeGreaterThanOrEqual(RECORDED_CALLS.length);
  });

  it('sends a burst of streamed text as one update', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    const deltas = words.map((word) => StreamEvent.textDelta(word));
    const { agent } = makeAgent(new ScriptedClient([[...deltas, StreamEvent.messageComplete()]]), [], {
      cwd: process.cwd(),
    });
    const { feed, detach } = InspectorFeed.ofAgent(agent);
    const updates: string[] = [];
    feed.subscribe((steps) => {
      for (const step of steps) if (step.kind === 'turn' && step.text !== undefined) updates.push(step.text);
    });
    await collect(agent.run('go'));
    detach();
    expect(updates.length).toBeLessThan(deltas.length);
    expect(updates.at(-1)).toBe(words.join(''));
    expect(feed.snapshot().steps.at(-1)).toMatchObject({ kind: 'answer', text: updates.at(-1) });
  });

  it('tells listeners of each change as it happens: running tools, streamed text, then the result', async () => {
    const { agent } = makeAgent(new ScriptedClient(recordedScript()), [lookupTool], {
      cwd: process.cwd(),
      budget: { maxTurns: 5, softLimitRatio: 0.6 },
    });
    const { feed, detach } = InspectorFeed.ofAgent(agent);
    const seen: TimelineStep[] = [];
    feed.subscribe((steps) => seen.push(...steps));
    await collect(agent.run('go'));
    detach();
    const c1 = seen.filter((s) => s.tool?.callId === 'c1').map((s) => s.tool?.status);
    expect(c1.slice(0, 3)).toEqual(['pending', 'running', 'ok']);
    expect(seen.some((s) => s.kind === 'turn' && s.text === 'Let me <b>look</b> these up.')).toBe(true);
    expect(feed.snapshot().steps.find((s) => s.id === 'turn-1')?.text).toBeUndefined();
  });
});

describe('TimelineBuilder and a fallback chain', () => {
  it('shows each model switch as a line naming both models, the reason and the error', () => {
    const builder = new TimelineBuilder();
    const entries: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      {
        type: 'model_switch',
        from: 'gpt-5',
        to: 'gpt-5-mini',
        reason: 'rate_limit',
        message: 'rate limited (HTTP 429)',
      },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, model: 'gpt-5-mini' },
      { type: 'agent_end', response: 'done' },
    ];
    for (const entry of entries) builder.addEntry(entry);
    const line = builder.steps.find((step) => step.kind === 'model_switch');
    expect(line).toMatchObject({
      title: 'model switch (rate_limit): gpt-5 → gpt-5-mini',
      text: 'rate limited (HTTP 429)',
    });
  });
});
