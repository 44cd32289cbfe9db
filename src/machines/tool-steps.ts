import type { ToolCall } from '../core/messages.js';
import { addUsage } from '../core/usage.js';
import { advanceTools } from './advance-tools.js';
import type { AgentContext, ReportParams, ToolResultParams, ToolSettledEvent } from './agent-machine-types.js';
import { resultTokens } from './context-rules.js';
import { countResults } from './invalid-calls.js';
import { type ContextUpdate, isNewResult, machineSetup, type StepArgs } from './machine-setup.js';
import { toolActorId } from './tool-actor-id.js';
import { batchOf, progressOf, withSettled } from './tool-batch.js';

/** A resumed run: hand the pending calls to `executingTools` and start the first batch. */
export const startPendingCalls = machineSetup.enqueueActions(({ context, enqueue }) => {
  advanceTools(context, progressOf(context), enqueue, { resuming: false });
});

/** `recordResult` for the call a `TOOL_SETTLED` settles: journaled as it settles. */
function settledResult({ context, event }: StepArgs): ToolResultParams {
  const { index, result, usage } = event as ToolSettledEvent;
  const call = context.tools.calls[index] as ToolCall;
  return usage ? { call, result, usage } : { call, result };
}

/** The settled call's actor: its call is answered, so it is stopped. */
const stopSettledTool = machineSetup.stopChild(({ event }) => toolActorId((event as ToolSettledEvent).index));

/** What a settled call adds to the context besides its result: time, a child's usage, the result's size. */
function settledUpdate(context: AgentContext, event: ToolSettledEvent): ContextUpdate {
  // Keys added one by one, not spread: this runs for every call.
  const update: ContextUpdate = { elapsedMs: Math.max(context.elapsedMs, event.elapsedMs) };
  // A child agent's usage counts into this run's budgets, checked once the turn is observed.
  if (event.usage) update.usage = addUsage(context.usage, event.usage);
  if (context.limits.contextLimit !== undefined) {
    update.contextTokens = context.contextTokens + resultTokens(event.result, context.tokenScale);
  }
  return update;
}

/** Keeps a settled call's result (journaled at once), then starts whatever the schedule now allows. */
export const settleTool = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (!isNewResult(context, event)) return;
  enqueue({ type: 'recordResult', params: settledResult({ context, event }) });
  enqueue.stopChild(toolActorId(event.index));
  const progress = progressOf(context);
  progress.results[event.index] = event.result;
  progress.settled += 1;
  progress.running -= 1;
  advanceTools(context, progress, enqueue, settledUpdate(context, event));
});

/**
 * The last call settled: every call is answered, and every result not reported yet is
 * reported now, in call order. Reported before the batch is closed, from the step's own copy.
 */
function lastReport({ context, event }: StepArgs): ReportParams {
  const { tools } = context;
  return {
    calls: tools.calls,
    results: withSettled(tools, event as ToolSettledEvent),
    from: tools.reported,
    to: tools.calls.length,
  };
}

/** Closes the batch on its last result: all settled and reported, invalid calls counted in call order. */
const closeBatch = machineSetup.assign(({ context, event }) => {
  const settled = event as ToolSettledEvent;
  const { tools } = context;
  const results = withSettled(tools, settled);
  const total = tools.calls.length;
  const update = settledUpdate(context, settled);
  update.tools = batchOf(tools, {
    results,
    settled: tools.settled + 1,
    reported: total,
    nextToStart: tools.nextToStart,
    running: tools.running - 1,
    asked: tools.asked,
  });
  update.invalidCalls = countResults(context.invalidCalls, tools.calls, results, tools.reported, total);
  return update;
});

/**
 * The last result of the turn: the same effects as {@link settleTool}'s, in the same order, as
 * fixed actions (the calls to start are none, the results to report all that are left).
 */
export const settleLastTool = [
  { type: 'recordResult', params: settledResult },
  stopSettledTool,
  { type: 'reportResults', params: lastReport },
  closeBatch,
] as const;

/** `HANDOFF` from a running call: the next requests use the other agent (journaled). */
export const handOff = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'HANDOFF') return;
  enqueue({ type: 'recordHandoff', params: { from: context.agent, to: event.to, instructions: event.instructions } });
  enqueue.assign({ agent: event.to });
});

/**
 * An abort or time-out while tools run: calls not started yet are answered at once, running
 * ones are cancelled (each actor aborts its own signal) and answer as their tools stop.
 */
export const abortTools = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'ABORT') return;
  if (context.aborting !== undefined) return;
  const aborting = { reason: event.reason, message: event.message };
  enqueue('stopping');
  for (let index = 0; index < context.tools.nextToStart; index++) {
    if (context.tools.results[index] === undefined) {
      enqueue.sendTo(toolActorId(index), { type: 'CANCEL', reason: event.message });
    }
  }
  advanceTools({ ...context, aborting }, progressOf(context), enqueue, { aborting });
});
