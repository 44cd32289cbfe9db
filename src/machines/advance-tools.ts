import type { ToolCall } from '../core/messages.js';
import { abortedBeforeStart, ToolResult } from '../core/tool-result.js';
import type { AgentContext } from './agent-machine-types.js';
import { answerFor, type GatedCalls, gateEnd } from './approval-gate.js';
import { TOOLS_WITHHELD_ERROR } from './budget-message.js';
import { resultTokens } from './context-rules.js';
import { countResults } from './invalid-calls.js';
import type { ContextUpdate, Enqueue, Spawn } from './machine-setup.js';
import { toolActorId } from './tool-actor-id.js';
import { batchOf, type ToolProgress } from './tool-batch.js';
import { readyRange } from './tool-schedule.js';

/**
 * Answers calls that will not run (tools withheld, or the run aborting) from `nextToStart` to
 * the end, without starting them: each gets its error result, journaled and reported like any
 * other. Updates `progress` in place (the caller's own copy). Returns the tokens the results
 * add to the context (0 without a context limit).
 */
function answerUnstarted(
  context: AgentContext,
  progress: ToolProgress,
  result: (call: ToolCall) => ToolResult,
  enqueue: Enqueue,
): number {
  const { results } = progress;
  const { calls } = context.tools;
  const total = calls.length;
  let tokens = 0;
  for (let index = progress.nextToStart; index < total; index++) {
    const call = calls[index] as ToolCall;
    const answer = result(call);
    results[index] = answer;
    enqueue({ type: 'recordResult', params: { call, result: answer } });
    if (context.limits.contextLimit !== undefined) tokens += resultTokens(answer, context.tokenScale);
  }
  progress.settled += total - progress.nextToStart;
  progress.nextToStart = total;
  return tokens;
}

/**
 * Decides which calls start now and spawns each as a child actor (the schedule of
 * tool-schedule.ts). Withholding is decided here, at spawn time: withheld calls never start.
 * Then reports, in call order, every result that became reportable. `progress` is the step's
 * own copy (its `results` a fresh array), updated in place; `also` carries the caller's other
 * changes to the context.
 *
 * The whole step is one `assign`, and the calls that start are spawned inside it: XState copies
 * the snapshot once per assign and once per `spawnChild` action, so one assign per step is one
 * copy where a `spawnChild` per call plus an assign was two or more.
 */
export function advanceTools(
  context: AgentContext,
  progress: ToolProgress,
  enqueue: Enqueue,
  also: ContextUpdate | undefined,
): void {
  let from = progress.nextToStart;
  let to = from;
  let unstartedTokens = 0;
  if (context.toolsWithheld) {
    unstartedTokens = answerUnstarted(context, progress, () => ToolResult.error(TOOLS_WITHHELD_ERROR), enqueue);
  } else if (context.aborting !== undefined) {
    const why = context.aborting.message;
    answerUnstarted(context, progress, (call) => ToolResult.error(abortedBeforeStart(call.name, why)), enqueue);
  } else {
    const ready = readyRange(
      context.tools.concurrencySafe,
      progress.nextToStart,
      progress.running,
      context.limits.maxParallelTools,
    );
    from = ready.from;
    // A call that waits for approval starts nothing from it on (waiting calls come last).
    to = gateEnd(context.tools, from, ready.to);
    progress.nextToStart = to;
    progress.running += to - from;
  }
  const { results } = progress;
  const { tools } = context;
  let reported = progress.reported;
  let invalidCalls = context.invalidCalls;
  while (results[reported] !== undefined) reported++;
  if (reported > progress.reported) {
    enqueue({
      type: 'reportResults',
      params: { calls: tools.calls, results, from: progress.reported, to: reported },
    });
    // Invalid calls are counted as results are reported: in call order, whatever order they settled in.
    invalidCalls = countResults(invalidCalls, tools.calls, results, progress.reported, reported);
    progress.reported = reported;
  }
  const update: ContextUpdate = also ?? {};
  // Results answered without running join the context too (an aborting run makes no more requests).
  if (unstartedTokens > 0) update.contextTokens = (update.contextTokens ?? context.contextTokens) + unstartedTokens;
  update.tools = batchOf(tools, progress);
  update.invalidCalls = invalidCalls;
  if (from === to) {
    enqueue.assign(() => update);
    return;
  }
  enqueue.assign(({ spawn }) => {
    spawnCalls(spawn, tools, from, to);
    return update;
  });
}

/** Spawns the actors of calls `from`..`to` (exclusive), each with its call and position. */
export function spawnCalls(spawn: Spawn, tools: GatedCalls, from: number, to: number): void {
  const { calls } = tools;
  for (let index = from; index < to; index++) {
    const call = calls[index] as ToolCall;
    // A denied call, or a resumed run's in-doubt call that may not run twice: its actor answers without running it.
    const answer = answerFor(tools, index);
    spawn('runTool', {
      id: toolActorId(index),
      input: answer === undefined ? { call, index } : { call, index, answer },
    });
  }
}
