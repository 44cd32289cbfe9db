import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message, ModelClient } from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { agentMaker, lookupScript, lookupTool, recordRun } from './support/recording.js';

const prompt = { systemPrompt: 'You define words.' };

describe('replayCassette', () => {
  it('passes an unchanged run, with tools recorded or live', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    expect(cassette.turns).toHaveLength(3);
    expect(cassette.turns[0]?.answer?.events.filter((event) => event.type === 'text_delta')).toHaveLength(2);
    for (const tools of ['recorded', 'live'] as const) {
      const report = await replayCassette(cassette, { makeAgent: agentMaker({ config: prompt }), tools });
      expect(report, formatCassetteReport(report)).toEqual({ ok: true });
    }
  });

  it('serves the recorded deltas, and in recorded mode runs no tool', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    let ran = 0;
    const counting = lookupTool();
    const execute = counting.execute.bind(counting);
    const tool = {
      ...counting,
      execute: (invocation: Parameters<typeof execute>[0]) => {
        ran++;
        return execute(invocation);
      },
    };
    const deltas: string[] = [];
    const report = await replayCassette(cassette, {
      makeAgent: async (client) => {
        const agent = await agentMaker({ config: prompt, tools: [tool] })(client);
        agent.events.subscribe((event) => {
          if (event.type === 'text_delta') deltas.push((event.data as { content: string }).content);
        });
        return agent;
      },
    });
    expect(report.ok).toBe(true);
    expect(ran).toBe(0);
    expect(deltas).toEqual(['Let me ', 'look.', 'A cat, ', 'a dog and an eel.']);
  });

  it('reports a changed tool schema as tools offered at turn 1', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const changed = lookupTool('Looks a word up.', z.object({ word: z.string(), lang: z.string().optional() }));
    const report = await replayCassette(cassette, { makeAgent: agentMaker({ config: prompt, tools: [changed] }) });
    expect(report.ok).toBe(false);
    expect(report.divergence?.kind).toBe('tools offered');
    expect(report.divergence?.step).toMatchObject({ turn: 1, state: 'awaitingModel' });
    expect(report.divergence?.diff).toContain('tools[0].parameters.properties.lang');
    expect(formatCassetteReport(report)).toContain('tools offered diverged at step');
  });

  it('reports a changed system prompt as request messages at turn 1, with a readable diff', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const report = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: { systemPrompt: 'You define words briefly.' } }),
    });
    expect(report.divergence?.kind).toBe('request messages');
    expect(report.divergence?.step.turn).toBe(1);
    expect(report.divergence?.diff).toContain('messages[0].content');
    expect(report.divergence?.diff).toContain('"You define words briefly."');
  });

  it("reports a change in an adapter's message conversion at the first request it alters", async () => {
    const converting =
      (suffix: string) =>
      (client: ModelClient): ModelClient => ({
        chatCompletion: (messages, tools, options) =>
          client.chatCompletion(
            messages.map(
              (message): Message =>
                message.role === 'tool' ? { ...message, content: `${message.content}${suffix}` } : message,
            ),
            tools,
            options,
          ),
      });
    const { cassette } = await recordRun(lookupScript(), { config: prompt, wrap: converting('') });
    const report = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: prompt, wrap: converting(' (tool output)') }),
    });
    expect(report.divergence?.kind).toBe('request messages');
    expect(report.divergence?.step.turn).toBe(2);
    expect(report.divergence?.diff).toContain('messages[3].content');
  });

  it('reports a changed budget rule as the transition the machine now takes', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: { ...prompt, budget: { maxTurns: 5 } } });
    const report = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: { ...prompt, budget: { maxTurns: 2 } } }),
    });
    expect(report.divergence?.kind).toBe('transition');
    expect(report.divergence?.expected).toMatchObject({ from: 'budgetCheck', to: 'awaitingModel' });
    expect(report.divergence?.actual).toMatchObject({ from: 'budgetCheck', to: 'error' });
    expect(report.divergence?.step).toMatchObject({ turn: 2, state: 'error' });
  });

  it('diverges at the first extra request when the run asks for more turns than were recorded', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: { ...prompt, budget: { maxTurns: 2 } } });
    expect(cassette.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'turn_budget' });
    const report = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: { ...prompt, budget: { maxTurns: 3 } } }),
    });
    // The budget check goes on where it stopped, then the third request has no recorded answer.
    expect(report.divergence?.kind).toBe('transition');
    const all = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: { ...prompt, budget: { maxTurns: 3 } } }),
      continueOnDivergence: true,
    });
    const extra = all.divergences?.find((found) => found.kind === 'extra request');
    expect(extra?.step.turn).toBe(3);
    expect(extra?.message).toContain('the run asked for model turn 3');
  });

  it('reports a truncated recording as "recording ended at step N", without waiting', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const starts = cassette.journal.flatMap((entry, i) => (entry.type === 'turn_start' ? [i] : []));
    const third = starts[2] as number;
    const truncated = { ...cassette, turns: cassette.turns.slice(0, 2), journal: cassette.journal.slice(0, third + 1) };
    const report = await replayCassette(truncated, { makeAgent: agentMaker({ config: prompt }) });
    expect(report.divergence?.kind).toBe('recording ended');
    expect(report.divergence?.message).toMatch(/^recording ended at step \d+/);
    expect(report.divergence?.step).toMatchObject({ turn: 3, entryIndex: third });
    // Cut inside turn 2 instead: the recording holds no result for its call.
    const inTurn2 = { ...cassette, turns: cassette.turns.slice(0, 2), journal: cassette.journal.slice(0, third - 4) };
    const early = await replayCassette(inTurn2, { makeAgent: agentMaker({ config: prompt }) });
    expect(early.divergence?.message).toMatch(/^recording ended at step \d+/);
    expect(early.divergence?.step.turn).toBe(2);
  });

  it('ignores the paths it is told to, and uses a comparator per step kind', async () => {
    const dated = (day: string) => ({ systemPrompt: `Today is ${day}.` });
    const { cassette } = await recordRun(lookupScript(), { config: dated('2026-01-01') });
    const later = agentMaker({ config: dated('2026-12-03'), tools: [lookupTool('Looks up a word.')] });
    expect((await replayCassette(cassette, { makeAgent: later })).ok).toBe(false);
    const tuned = await replayCassette(cassette, {
      makeAgent: later,
      ignore: ['messages[0].content'],
      compare: {
        'tools offered': (expected, actual) =>
          JSON.stringify((expected as { tools: { name: string }[] }).tools.map((tool) => tool.name)) ===
          JSON.stringify((actual as { tools: { name: string }[] }).tools.map((tool) => tool.name)),
      },
    });
    expect(tuned, formatCassetteReport(tuned)).toEqual({ ok: true });
  });

  it('with continueOnDivergence, lists every divergence in step order', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: prompt });
    const report = await replayCassette(cassette, {
      makeAgent: agentMaker({ config: { systemPrompt: 'Changed.' }, tools: [lookupTool('Changed too.')] }),
      continueOnDivergence: true,
    });
    const kinds = report.divergences?.map((found) => `${found.step.turn} ${found.kind}`);
    expect(kinds).toEqual([
      '1 request messages',
      '1 tools offered',
      '2 request messages',
      '2 tools offered',
      '3 request messages',
      '3 tools offered',
    ]);
    expect(report.divergence).toBe(report.divergences?.[0]);
  });
});
