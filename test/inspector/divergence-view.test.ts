import { describe, expect, it } from 'vitest';
import { divergenceView, stepAtEntry } from '../../src/inspector/divergence-view.js';
import { replayRun } from '../../src/testing/cassettes/replay-cassette.js';
import type { Divergence } from '../../src/testing/index.js';
import { agentMaker, lookupScript, recordRun } from '../cassettes/support/recording.js';
import { divergedReplay, HOSTILE_RESULT } from './support/diverged-replay.js';

const point = (found: Divergence | undefined) => {
  if (found === undefined) throw new Error('the replay did not diverge');
  return { entryIndex: found.step.entryIndex, kind: found.kind, message: found.message, diff: found.diff };
};

describe('divergenceView', () => {
  it('puts both timelines at the tool call whose result differs', async () => {
    const run = await divergedReplay();
    const found = point(run.report.divergence);
    expect(found.kind).toBe('tool result');
    const view = divergenceView(run.cassette.journal, run.agent.session.journal, found);
    const recorded = view.recorded.steps[view.recorded.highlight];
    const replayed = view.replayed.steps[view.replayed.highlight];
    expect(recorded?.tool).toMatchObject({ callId: 'c1', result: 'definition of cat' });
    expect(replayed?.tool).toMatchObject({ callId: 'c1', result: HOSTILE_RESULT });
    expect(view.divergence.diff).toContain('definition of cat');
    expect(view.recorded.steps.length).toBeGreaterThan(view.recorded.highlight + 1);
  });

  it('puts both timelines at the turn whose request differs', async () => {
    const { cassette } = await recordRun(lookupScript(), { config: { systemPrompt: 'You define words.' } });
    const run = await replayRun(cassette, { makeAgent: agentMaker({ config: { systemPrompt: 'Define words.' } }) });
    const found = point(run.report.divergence);
    expect(found.kind).toBe('request messages');
    const view = divergenceView(run.cassette.journal, run.agent.session.journal, found);
    for (const column of [view.recorded, view.replayed]) {
      expect(column.steps[column.highlight]).toMatchObject({ kind: 'turn', entries: found.entryIndex + 1 });
    }
  });

  it('puts an entry that makes no step of its own on the step before it', async () => {
    const { cassette } = await recordRun(lookupScript());
    const view = divergenceView(cassette.journal, cassette.journal, { entryIndex: 0, kind: '', message: '', diff: '' });
    const usage = cassette.journal.findIndex((entry) => entry.type === 'usage');
    const at = stepAtEntry(view.recorded.steps, cassette.journal, usage);
    expect(view.recorded.steps[at]).toMatchObject({ kind: 'turn', entries: usage });
    expect(stepAtEntry([], cassette.journal, usage)).toBe(-1);
  });
});
