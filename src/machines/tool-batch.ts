import type { ToolResult } from '../core/tool-result.js';
import type { AgentContext, ToolBatch, ToolSettledEvent } from './agent-machine-types.js';
import { type GatedCalls, gateCalls } from './approval-gate.js';

/** Where the tool calls of the turn stand: the part of {@link ToolBatch} each tool step updates. */
export interface ToolProgress {
  /** Each call's result, in call order (undefined while it has none). */
  results: (ToolResult | undefined)[];
  /** How many calls have a result. */
  settled: number;
  /** The index of the next call to start. */
  nextToStart: number;
  /** How many started calls have no result yet. */
  running: number;
  /** How many results (from the first) were reported. */
  reported: number;
  /** Whether the turn's waiting calls were asked about. */
  asked: boolean;
}

/** A copy of the context's tool progress, for a step to update. */
export function progressOf({ tools }: AgentContext): ToolProgress {
  return {
    results: tools.results.slice(),
    settled: tools.settled,
    nextToStart: tools.nextToStart,
    running: tools.running,
    reported: tools.reported,
    asked: tools.asked,
  };
}

/** A turn's calls as the gate ordered them, and where they stand (one literal: a fast object). */
export function batchOf(gated: GatedCalls, progress: ToolProgress): ToolBatch {
  return {
    calls: gated.calls,
    concurrencySafe: gated.concurrencySafe,
    answers: gated.answers,
    permissions: gated.permissions,
    decisions: gated.decisions,
    rules: gated.rules,
    results: progress.results,
    settled: progress.settled,
    reported: progress.reported,
    nextToStart: progress.nextToStart,
    running: progress.running,
    asked: progress.asked,
  };
}

/** A turn's calls as the gate ordered them, none started yet. */
export function newBatch(gated: GatedCalls): ToolBatch {
  const results = gated.calls.map(() => undefined);
  return batchOf(gated, { results, settled: 0, reported: 0, nextToStart: 0, running: 0, asked: false });
}

/** The batch of a run that starts with no calls owed (every new run): shared, as batches are never changed. */
export const NO_BATCH: ToolBatch = Object.freeze(newBatch(gateCalls({ calls: [], concurrencySafe: [] })));

/** No calls wait, none answered ahead, none decided: the gate's part of an ungated batch. */
export const UNGATED: readonly never[] = Object.freeze([]);

/** A copy of the turn's results with the one a `TOOL_SETTLED` brings. */
export function withSettled(tools: ToolBatch, event: ToolSettledEvent): (ToolResult | undefined)[] {
  const results = tools.results.slice();
  results[event.index] = event.result;
  return results;
}
