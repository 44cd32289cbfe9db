import type { JournalEntry } from '../core/journal-entry.js';
import { type MachineGraph, machineGraph } from '../diagram/machine-graph.js';
import { agentMachine } from '../machines/agent-machine.js';
import type { InspectorSnapshot } from './inspector-feed.js';
import type { InspectorSource } from './inspector-server.js';
import { TimelineBuilder } from './timeline-builder.js';
import type { TimelineStep } from './timeline-step.js';

/**
 * Where and how a replay left its recording, as the inspector shows it: the fields of a
 * cassette divergence (`agent-harness/testing`) the page needs, so this folder depends on none.
 */
export interface DivergencePoint {
  /** The index of the journal entry where the runs differ. */
  readonly entryIndex: number;
  /** What kind of step differed (`tool call`, `request messages`, …). */
  readonly kind: string;
  /** One line saying what happened. */
  readonly message: string;
  /** The readable diff of the recorded and new values; shown as text only. */
  readonly diff: string;
}

/** One side of the divergence view: a run's timeline and the step the divergence falls on. */
export interface DivergenceColumn {
  /** The column's heading (`recorded`, `replayed`). */
  readonly title: string;
  /** The run's timeline, folded from its journal as `inspect` folds a saved one. */
  readonly steps: readonly TimelineStep[];
  /** The index in `steps` of the step at the divergence's entry; -1 when the run made no step. */
  readonly highlight: number;
}

/** The recorded and the new run side by side, at their first differing step. */
export interface DivergenceView {
  /** Where and what differed. */
  readonly divergence: DivergencePoint;
  /** The recording's journal (the cassette's). */
  readonly recorded: DivergenceColumn;
  /** The journal of the run just replayed with the current code. */
  readonly replayed: DivergenceColumn;
}

/**
 * The step a journal entry falls on: for an entry of a tool call (its start, its result), that
 * call's step; else the first step made by that entry; for an entry that makes no step of its
 * own (usage), the last step before it; -1 when there are no steps.
 */
export function stepAtEntry(
  steps: readonly TimelineStep[],
  journal: readonly JournalEntry[],
  entryIndex: number,
): number {
  const entry = journal[entryIndex];
  const callId = entry !== undefined && 'callId' in entry ? entry.callId : undefined;
  const call = callId === undefined ? -1 : steps.findIndex((step) => step.tool?.callId === callId);
  if (call !== -1) return call;
  const count = entryIndex + 1;
  const own = steps.findIndex((step) => step.entries === count);
  if (own !== -1) return own;
  let before = -1;
  for (const [index, step] of steps.entries()) if ((step.entries ?? 0) < count) before = index;
  return before === -1 && steps.length > 0 ? 0 : before;
}

function timeline(journal: readonly JournalEntry[], initialState: string): TimelineStep[] {
  const builder = new TimelineBuilder({ initialState });
  for (const entry of journal) builder.addEntry(entry);
  return builder.steps.slice();
}

/**
 * Builds both timelines from their journals and finds, in each, the step at the divergence's
 * entry (the journals agree up to it, so the index means the same point in both).
 */
export function divergenceView(
  recorded: readonly JournalEntry[],
  replayed: readonly JournalEntry[],
  divergence: DivergencePoint,
  graph: MachineGraph = machineGraph(agentMachine),
): DivergenceView {
  const column = (title: string, journal: readonly JournalEntry[]): DivergenceColumn => {
    const steps = timeline(journal, graph.initial);
    return { title, steps, highlight: stepAtEntry(steps, journal, divergence.entryIndex) };
  };
  const { entryIndex, kind, message, diff } = divergence;
  return {
    divergence: { entryIndex, kind, message, diff },
    recorded: column('recorded', recorded),
    replayed: column('replayed', replayed),
  };
}

/**
 * What `startInspector` serves for a divergence: a saved page with the new run on the machine
 * (its timeline, for time travel, selected at the divergence) and both timelines side by side
 * above it, each at the divergence's step, with the diff.
 */
export function divergenceSource(
  title: string,
  recorded: readonly JournalEntry[],
  replayed: readonly JournalEntry[],
  divergence: DivergencePoint,
): InspectorSource {
  const graph = machineGraph(agentMachine);
  const view = divergenceView(recorded, replayed, divergence, graph);
  const snapshot: InspectorSnapshot = { title, live: false, graph, steps: view.replayed.steps, divergence: view };
  return { snapshot: () => snapshot, subscribe: () => () => {} };
}
