import { assign, enqueueActions, type Spawner, setup } from 'xstate';
import { Budget } from '../config/budget.js';
import { DEFAULT_MAX_INVALID_TOOL_CALLS, DEFAULT_MAX_PARALLEL_TOOLS, DEFAULT_MAX_TURNS } from '../config/config.js';
import type { ApprovalDecision, ApprovalRequestParams, DecisionParams } from '../core/approval-types.js';
import type { ToolCall } from '../core/messages.js';
import { abortedBeforeStart, ToolResult } from '../core/tool-result.js';
import { addUsage, ZERO_USAGE } from '../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  AgentMachineInput,
  AgentStateName,
  CompactedEvent,
  CompactParams,
  HandoffParams,
  ModelRequestParams,
  ModelTurn,
  ModelTurnEvent,
  RejectOutputParams,
  ReportParams,
  ToolBatch,
  ToolResultParams,
  ToolSettledEvent,
} from './agent-machine-types.js';
import {
  answerFor,
  blockedOnApproval,
  type GatedCalls,
  gateCalls,
  gateEnd,
  waitingCalls,
  waitingIndex,
} from './approval-gate.js';
import { TOOLS_WITHHELD_ERROR } from './budget-message.js';
import { budgetStop, hardStop, treeStop } from './budget-rules.js';
import {
  contextOverflowStop,
  contextOverLimit,
  resultTokens,
  tokensAfterRetry,
  tokensAfterWarning,
} from './context-rules.js';
import { countResults, invalidCallsStop, NO_INVALID_CALLS } from './invalid-calls.js';
import { DEFAULT_OUTPUT_RETRIES, outputInvalidStop, outputRetryLeft, rejectedOutput } from './output-rules.js';
import { type ToolActorLogic, toolActorLogic } from './tool-actor-logic.js';
import { readyRange } from './tool-schedule.js';

/** The name of a session's own agent, before any handoff. */
export const MAIN_AGENT = 'main';

function notProvided(name: string): never {
  throw new Error(`agentMachine: the '${name}' actor is not provided; run it through Agent or machine.provide()`);
}

/**
 * Id of the tool actor for the call at `index` of a turn. Every turn reuses the ids, as XState
 * reuses an invoked actor's id each time its state is entered (a turn's actors are stopped as
 * their calls settle). One id per turn made every turn's snapshot a new object shape for V8,
 * ~2 µs per turn.
 */
export function toolActorId(index: number): string {
  return `tool-${index}`;
}

function isNewResult(context: AgentContext, event: AgentMachineEvent): event is ToolSettledEvent {
  return (
    event.type === 'TOOL_SETTLED' &&
    event.index >= 0 &&
    event.index < context.tools.calls.length &&
    context.tools.results[event.index] === undefined
  );
}

/** A model turn that asked for at least one tool call. */
function askedForTools(event: AgentMachineEvent): event is ModelTurnEvent {
  return event.type === 'MODEL_TURN' && event.turn.toolCalls.length > 0;
}

/** The gate holds a turn's calls back: some call asks or is denied, or a soft limit withheld tools. */
function gatedTurn(context: AgentContext, event: ModelTurnEvent): boolean {
  return event.turn.permissions !== undefined || context.toolsWithheld;
}

const enter = (state: AgentStateName) => ({ type: 'recordTransition', params: { to: state } }) as const;

const machineSetup = setup({
  types: {
    context: {} as AgentContext,
    events: {} as AgentMachineEvent,
    input: {} as AgentMachineInput | undefined,
  },
  actors: {
    runTool: toolActorLogic(() => notProvided('runTool')),
  },
  actions: {
    /** Effect: a state was entered (the agent journals the transition). */
    recordTransition: (_, _params: { to: AgentStateName }) => {},
    /**
     * Effect: start a model request (the agent journals the turn's start and streams the
     * request); it answers with `MODEL_TURN` or `MODEL_ERROR`.
     */
    requestModel: (_, _params: ModelRequestParams) => {},
    /** Effect: a model turn completed (usage, and the assistant message when it asked for tools). */
    recordModelTurn: (_, _params: { turn: ModelTurn }) => {},
    /** Effect: journal one call's result, as it settles. */
    recordResult: (_, _params: ToolResultParams) => {},
    /** Effect: the conversation was handed to another agent (the agent journals it). */
    recordHandoff: (_, _params: HandoffParams) => {},
    /** Effect: report results in the model's order (`tool_call_complete`), announcing calls that never ran. */
    reportResults: (_, _params: ReportParams) => {},
    /** Effect: calls wait for a decision (the agent emits `tool_approval_request` for each). */
    requestApproval: (_, _params: ApprovalRequestParams) => {},
    /** Effect: a call that asked was decided (the agent journals and reports the decision). */
    recordDecision: (_, _params: DecisionParams) => {},
    /**
     * Effect: a final answer failed the run's output schema and goes back to the model (the
     * agent journals its usage, the answer and a harness message with the problem).
     */
    rejectOutput: (_, _params: RejectOutputParams) => {},
    /**
     * Effect: compact the context (elide old tool outputs, or ask the model for a summary); it
     * answers with `COMPACTED` or, when a summary request fails, `MODEL_ERROR`.
     */
    compactContext: (_, _params: CompactParams) => {},
    /** Effect: journal a compaction (and the usage of its summary request). */
    recordCompaction: (_, _params: { event: CompactedEvent }) => {},
    /** Effect: a soft limit was crossed; warn and ask for a final answer. */
    warnBudget: () => {},
    /** Effect: abort the model request in flight. */
    cancelInFlight: () => {},
    /** Effect: the run is stopping (the agent stops waiting for stuck subscribers). */
    stopping: () => {},
    /** Effect: the run ended with an answer. */
    finish: () => {},
    /** Effect: the run ended without one. */
    fail: () => {},
  },
  guards: {
    turnAskedForTools: ({ context, event }) => askedForTools(event) && !gatedTurn(context, event),
    turnAskedForGatedTools: ({ context, event }) => askedForTools(event) && gatedTurn(context, event),
    settlesNewResult: ({ context, event }) => isNewResult(context, event),
    handsOffFromRunningCall: ({ context, event }) =>
      event.type === 'HANDOFF' &&
      event.index >= 0 &&
      event.index < context.tools.nextToStart &&
      context.tools.results[event.index] === undefined,
    outputRejectedWithRetry: ({ context, event }) => rejectedOutput(event) !== undefined && outputRetryLeft(context),
    outputRejected: ({ event }) => rejectedOutput(event) !== undefined,
    settlesLastResult: ({ context, event }) =>
      isNewResult(context, event) && context.tools.settled + 1 >= context.tools.calls.length,
    allSettled: ({ context }) => context.tools.settled >= context.tools.calls.length,
    isAborting: ({ context }) => context.aborting !== undefined,
    isResuming: ({ context }) => context.resuming,
    isRefused: ({ context }) => context.stop !== undefined,
    blockedOnApproval: ({ context }) => blockedOnApproval(context),
    approvalUnblocked: ({ context }) => !blockedOnApproval(context),
    decidesWaitingCall: ({ context, event }) =>
      (event.type === 'APPROVE' || event.type === 'DENY') && waitingIndex(context.tools, event.callId) >= 0,
    invalidCallsExceeded: ({ context }) =>
      invalidCallsStop(context.invalidCalls, context.limits.maxInvalidToolCalls) !== null,
    hardLimitReached: ({ context }) => hardStop(context) !== null,
    treeBudgetReached: ({ context }) => treeStop(context) !== null,
    contextOverLimit: ({ context }) => contextOverLimit(context),
    compactionMadeRoom: ({ event }) => event.type === 'COMPACTED' && event.compaction !== undefined,
    softLimitReached: ({ context }) =>
      !context.toolsWithheld &&
      context.limits.budget.softLimit(context.turns, context.usage, context.elapsedMs) !== null,
  },
});

type Enqueue = Parameters<Parameters<typeof machineSetup.enqueueActions>[0]>[0]['enqueue'];
type Spawn = Spawner<{ src: 'runTool'; logic: ToolActorLogic; id: string | undefined }>;
/** What a step's functions of the context and event (action params, assigns) are given. */
type StepArgs = { readonly context: AgentContext; readonly event: AgentMachineEvent };
/** A context update a step builds up before handing it to XState. */
type ContextUpdate = { -readonly [K in keyof AgentContext]?: AgentContext[K] };

/** Where the tool calls of the turn stand: the part of {@link ToolBatch} each tool step updates. */
interface ToolProgress {
  results: (ToolResult | undefined)[];
  settled: number;
  nextToStart: number;
  running: number;
  reported: number;
  asked: boolean;
}

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
function advanceTools(
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
function spawnCalls(spawn: Spawn, tools: GatedCalls, from: number, to: number): void {
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

/** A copy of the context's tool progress, for a step to update. */
function progressOf({ tools }: AgentContext): ToolProgress {
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
function batchOf(gated: GatedCalls, progress: ToolProgress): ToolBatch {
  return {
    calls: gated.calls,
    concurrencySafe: gated.concurrencySafe,
    answers: gated.answers,
    permissions: gated.permissions,
    decisions: gated.decisions,
    results: progress.results,
    settled: progress.settled,
    reported: progress.reported,
    nextToStart: progress.nextToStart,
    running: progress.running,
    asked: progress.asked,
  };
}

/** A turn's calls as the gate ordered them, none started yet. */
function newBatch(gated: GatedCalls): ToolBatch {
  const results = gated.calls.map(() => undefined);
  return batchOf(gated, { results, settled: 0, reported: 0, nextToStart: 0, running: 0, asked: false });
}

/** The batch of a run that starts with no calls owed (every new run): shared, as batches are never changed. */
const NO_BATCH: ToolBatch = Object.freeze(newBatch(gateCalls({ calls: [], concurrencySafe: [] })));

/** A resumed run: hand the pending calls to `executingTools` and start the first batch. */
const startPendingCalls = machineSetup.enqueueActions(({ context, enqueue }) => {
  advanceTools(context, progressOf(context), enqueue, { resuming: false });
});

/**
 * The turn waits only for decisions (the calls that needed none have run): ask for a decision on
 * every call that waits, once per turn. Asking earlier let a consumer that awaits the request (a
 * prompt) hold back the allowed calls until a person answered.
 */
const requestApprovals = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (context.tools.asked) return;
  const calls = waitingCalls(context.tools);
  if (calls.length > 0) enqueue({ type: 'requestApproval', params: { calls } });
  enqueue.assign({ tools: { ...context.tools, asked: true } });
});

/** `APPROVE` / `DENY` for a waiting call: journal the decision, then start what the schedule now allows. */
const decide = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'APPROVE' && event.type !== 'DENY') return;
  const index = waitingIndex(context.tools, event.callId);
  if (index < 0) return;
  const decision: ApprovalDecision =
    event.type === 'APPROVE' ? { approved: true } : { approved: false, reason: event.reason };
  enqueue({ type: 'recordDecision', params: { call: context.tools.calls[index] as ToolCall, decision } });
  const decisions = context.tools.decisions.slice();
  decisions[index] = decision;
  advanceTools({ ...context, tools: { ...context.tools, decisions } }, progressOf(context), enqueue, undefined);
});

/** `recordResult` for the call a `TOOL_SETTLED` settles: journaled as it settles. */
function settledResult({ context, event }: StepArgs): ToolResultParams {
  const { index, result, usage } = event as ToolSettledEvent;
  const call = context.tools.calls[index] as ToolCall;
  return usage ? { call, result, usage } : { call, result };
}

/** The settled call's actor: its call is answered, so it is stopped. */
const stopSettledTool = machineSetup.stopChild(({ event }) => toolActorId((event as ToolSettledEvent).index));

/** A copy of the turn's results with the one a `TOOL_SETTLED` brings. */
function withSettled(tools: ToolBatch, event: ToolSettledEvent): (ToolResult | undefined)[] {
  const results = tools.results.slice();
  results[event.index] = event.result;
  return results;
}

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
const settleTool = machineSetup.enqueueActions(({ context, event, enqueue }) => {
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
const settleLastTool = [
  { type: 'recordResult', params: settledResult },
  stopSettledTool,
  { type: 'reportResults', params: lastReport },
  closeBatch,
] as const;

/** `HANDOFF` from a running call: the next requests use the other agent (journaled). */
const handOff = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'HANDOFF') return;
  enqueue({ type: 'recordHandoff', params: { from: context.agent, to: event.to, instructions: event.instructions } });
  enqueue.assign({ agent: event.to });
});

/**
 * An abort or time-out while tools run: calls not started yet are answered at once, running
 * ones are cancelled (each actor aborts its own signal) and answer as their tools stop.
 */
const abortTools = machineSetup.enqueueActions(({ context, event, enqueue }) => {
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

/** `SUSPEND`: the run ends waiting; its undecided calls stay unanswered, for a later resume. */
const suspend = machineSetup.assign(({ context }) => {
  const ids = waitingCalls(context.tools).map((call) => `'${call.callId}'`);
  return {
    stop: {
      reason: 'suspended' as const,
      message: `suspended while call ${ids.join(', ')} waited for approval; resume the session to decide`,
    },
  };
});

/**
 * Starts a model request, unless the run resumes with pending tool calls, the context must be
 * compacted first, or a sub-agent's tree is out of budget (the state's `always` transitions take over).
 */
const startTurn = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (context.resuming || contextOverLimit(context) || context.stop !== undefined || treeStop(context) !== null) return;
  enqueue({ type: 'requestModel', params: { toolsWithheld: context.toolsWithheld } });
});

/** What the `compactContext` effect is given: the context's size, and how it was scaled. */
function compactParams(context: AgentContext): CompactParams {
  const { contextTokens: tokens, tokenScale, reportedTokenScale } = context;
  return reportedTokenScale === undefined ? { tokens, tokenScale } : { tokens, tokenScale, reportedTokenScale };
}

/** A compaction made room: journal it, count its summary's usage, and take the context's new size. */
const acceptCompaction = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'COMPACTED' || event.compaction === undefined) return;
  enqueue({ type: 'recordCompaction', params: { event } });
  enqueue.assign({
    usage: addUsage(context.usage, event.usage),
    elapsedMs: Math.max(context.elapsedMs, event.elapsedMs),
    contextTokens: event.compaction.tokensAfter,
  });
});

/** No calls wait, none answered ahead, none decided: the gate's part of an ungated batch. */
const UNGATED: readonly never[] = Object.freeze([]);

/** What a turn adds to the context: one turn, its usage, and what it measured of the context. */
function turnCounted(context: AgentContext, turn: ModelTurn): ContextUpdate {
  return {
    turns: context.turns + 1,
    usage: addUsage(context.usage, turn.usage),
    elapsedMs: turn.elapsedMs,
    contextTokens: turn.contextTokens ?? context.contextTokens,
    tokenScale: turn.tokenScale ?? context.tokenScale,
    // A turn that measured the context replaces the note: its report is the one now in use.
    reportedTokenScale: turn.contextTokens === undefined ? context.reportedTokenScale : turn.reportedTokenScale,
  };
}

/**
 * A turn that asked for tools the gate lets through (every call allowed, tools not withheld):
 * count it, add its usage, adopt its calls and start the first batch. Nothing can be reported
 * or asked yet, so the step is one `assign`, with no effects of its own beside the turn's record.
 * (A turn is counted when its answer arrives: budgets are only checked after that.)
 */
const adoptToolTurn = machineSetup.assign(({ context, event, spawn }) => {
  const { turn } = event as ModelTurnEvent;
  const { toolCalls, concurrencySafe } = turn;
  const gated: GatedCalls = {
    calls: toolCalls,
    concurrencySafe,
    answers: UNGATED,
    permissions: UNGATED,
    decisions: UNGATED,
  };
  const { from, to } = readyRange(concurrencySafe, 0, 0, context.limits.maxParallelTools);
  spawnCalls(spawn, gated, from, to);
  const update = turnCounted(context, turn);
  const results = toolCalls.map(() => undefined);
  update.tools = batchOf(gated, {
    results,
    settled: 0,
    reported: 0,
    nextToStart: to,
    running: to - from,
    asked: false,
  });
  return update;
});

/**
 * A turn that asked for tools the gate holds back (a call asks or is denied, or a soft limit
 * withheld tools): as {@link adoptToolTurn}, through the gate, asking for decisions and
 * answering withheld calls at once.
 */
const acceptGatedToolTurn = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'MODEL_TURN') return;
  const { turn } = event;
  const { toolCalls: calls, concurrencySafe, permissions } = turn;
  const tools = newBatch(
    gateCalls(permissions === undefined ? { calls, concurrencySafe } : { calls, concurrencySafe, permissions }),
  );
  const also = turnCounted(context, turn);
  const adopted: AgentContext = { ...context, ...also, tools };
  enqueue({ type: 'recordModelTurn', params: { turn } });
  const fresh: ToolProgress = {
    results: tools.results.slice(),
    settled: 0,
    nextToStart: 0,
    running: 0,
    reported: 0,
    asked: false,
  };
  advanceTools(adopted, fresh, enqueue, also);
});

/** A turn that answered: count it, add its usage, keep the answer (and its parsed output). */
const acceptAnswer = machineSetup.assign(({ context, event }) => {
  if (event.type !== 'MODEL_TURN') return {};
  const { turn } = event;
  const check = turn.outputCheck;
  return {
    turns: context.turns + 1,
    usage: addUsage(context.usage, turn.usage),
    elapsedMs: turn.elapsedMs,
    response: turn.text,
    ...(check?.ok ? { output: check.value } : {}),
  };
});

/** A final answer that failed the output schema and goes back: count the turn and the retry. */
const retryOutput = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  const problem = rejectedOutput(event);
  if (event.type !== 'MODEL_TURN' || problem === undefined) return;
  const { turn } = event;
  enqueue({ type: 'rejectOutput', params: { turn, problem } });
  enqueue.assign({
    turns: context.turns + 1,
    usage: addUsage(context.usage, turn.usage),
    elapsedMs: turn.elapsedMs,
    outputRetriesUsed: context.outputRetriesUsed + 1,
    contextTokens: tokensAfterRetry(context, turn, problem),
  });
});

/** A final answer that still fails the output schema with no retry left: the run stops. */
const refuseOutput = machineSetup.assign(({ context, event }) => {
  const problem = rejectedOutput(event);
  if (event.type !== 'MODEL_TURN' || problem === undefined) return {};
  return {
    turns: context.turns + 1,
    usage: addUsage(context.usage, event.turn.usage),
    elapsedMs: event.turn.elapsedMs,
    stop: outputInvalidStop(context, problem),
  };
});

const recordModelTurn = {
  type: 'recordModelTurn',
  params: ({ event }: { event: AgentMachineEvent }) => ({ turn: (event as { turn: ModelTurn }).turn }),
} as const;

/**
 * The agent loop as an XState v5 machine: the one place where the loop decides.
 * The tool actor (`runTool`) and the effects (`requestModel`, `record*`, `finish`, `fail`, …) are
 * named here and implemented by `Agent` via `.provide()`; tests may provide their own.
 */
export const agentMachine = machineSetup.createMachine({
  id: 'agent',
  context: ({ input }) => ({
    limits: {
      budget: input?.budget ?? new Budget({ maxTurns: DEFAULT_MAX_TURNS }),
      maxParallelTools: input?.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS,
      maxInvalidToolCalls: input?.maxInvalidToolCalls ?? DEFAULT_MAX_INVALID_TOOL_CALLS,
      outputRetries: input?.outputRetries ?? DEFAULT_OUTPUT_RETRIES,
      contextLimit: input?.contextLimit,
      tree: input?.tree,
    },
    invalidCalls: input?.invalidCalls ?? NO_INVALID_CALLS,
    outputRetriesUsed: 0,
    output: undefined,
    turns: 0,
    usage: ZERO_USAGE,
    elapsedMs: 0,
    // A resumed run's pending calls go through the gate again, under the policy of now.
    tools:
      input?.resume === undefined || input.resume.calls.length === 0 ? NO_BATCH : newBatch(gateCalls(input.resume)),
    resuming: (input?.resume?.calls.length ?? 0) > 0,
    toolsWithheld: false,
    aborting: undefined,
    stop: input?.refusal,
    response: undefined,
    contextTokens: input?.contextTokens ?? 0,
    tokenScale: input?.tokenScale ?? 1,
    reportedTokenScale: undefined,
    agent: input?.agent ?? MAIN_AGENT,
  }),
  entry: enqueueActions(({ context, enqueue }) => {
    const limit = context.limits.budget.maxWallClockMs;
    if (limit === undefined) return;
    const message = `time budget of ${limit} ms used up`;
    enqueue.raise({ type: 'ABORT', reason: 'time_budget', message }, { delay: limit, id: 'wallClock' });
  }),
  on: {
    ABORT: {
      target: '.error',
      actions: assign({ stop: ({ event }) => ({ reason: event.reason, message: event.message }) }),
    },
    INTERNAL_ERROR: {
      target: '.error',
      actions: assign({ stop: ({ event }) => ({ reason: 'internal_error' as const, message: event.message }) }),
    },
  },
  initial: 'awaitingModel',
  states: {
    awaitingModel: {
      entry: [enter('awaitingModel'), startTurn],
      always: [
        // A run refused at its start (input.refusal) asks the model nothing.
        { guard: 'isRefused', target: 'error' },
        { guard: 'isResuming', target: 'executingTools', actions: startPendingCalls },
        // A sub-agent stops before a request that would take its tree past the budget of an agent above it.
        {
          guard: 'treeBudgetReached',
          target: 'error',
          actions: assign({ stop: ({ context }) => treeStop(context) ?? undefined }),
        },
        // The request would exceed the context limit: compact first (no request was started).
        { guard: 'contextOverLimit', target: 'compacting' },
      ],
      on: {
        MODEL_TURN: [
          { guard: 'turnAskedForTools', target: 'executingTools', actions: [recordModelTurn, adoptToolTurn] },
          { guard: 'turnAskedForGatedTools', target: 'executingTools', actions: acceptGatedToolTurn },
          // A structured answer that fails its schema goes back (a turn, so budgets decide), or stops the run.
          { guard: 'outputRejectedWithRetry', target: 'budgetCheck', actions: retryOutput },
          { guard: 'outputRejected', target: 'error', actions: [refuseOutput, recordModelTurn] },
          { target: 'done', actions: [acceptAnswer, recordModelTurn] },
        ],
        MODEL_ERROR: {
          target: 'error',
          actions: assign({ stop: ({ event }) => ({ reason: 'model_error', message: event.message }) }),
        },
      },
    },
    executingTools: {
      // Tool actors are spawned by the transitions into this state and by its own (one batch
      // at a time, see advanceTools); `meta.spawns` names them for diagrams, and `meta.nests`
      // the child agent machine a sub-agent tool's actor runs (agentTool).
      meta: { spawns: ['runTool'], nests: [{ actor: 'runTool', machine: 'agent', when: 'agentTool' }] },
      entry: enter('executingTools'),
      always: [
        { guard: 'allSettled', target: 'observing' },
        { guard: 'blockedOnApproval', target: 'awaitingApproval' },
      ],
      on: {
        // The last result leaves at once: one microstep per turn fewer than settling, then
        // taking the `always` (XState builds a snapshot per microstep). `always` still leaves
        // when the calls are all answered otherwise (withheld, aborted before they started).
        TOOL_SETTLED: [
          { guard: 'settlesLastResult', target: 'observing', actions: settleLastTool },
          { guard: 'settlesNewResult', actions: settleTool },
        ],
        ABORT: { actions: abortTools },
        APPROVE: { guard: 'decidesWaitingCall', actions: decide },
        DENY: { guard: 'decidesWaitingCall', actions: decide },
        HANDOFF: { guard: 'handsOffFromRunningCall', actions: handOff },
      },
    },
    awaitingApproval: {
      // Nothing runs: the next call waits for agent.approve() / agent.deny(). Budgets keep
      // running (the wall-clock ABORT answers the waiting calls), and agent.suspend() ends the
      // run with the undecided calls left pending, for a later resume.
      entry: [enter('awaitingApproval'), requestApprovals],
      always: { guard: 'approvalUnblocked', target: 'executingTools' },
      on: {
        APPROVE: { guard: 'decidesWaitingCall', actions: decide },
        DENY: { guard: 'decidesWaitingCall', actions: decide },
        ABORT: { actions: abortTools },
        SUSPEND: { target: 'error', actions: suspend },
      },
    },
    observing: {
      entry: enter('observing'),
      always: 'budgetCheck',
    },
    budgetCheck: {
      entry: enter('budgetCheck'),
      always: [
        {
          guard: 'isAborting',
          target: 'error',
          actions: assign({ stop: ({ context }) => context.aborting }),
        },
        {
          guard: 'invalidCallsExceeded',
          target: 'error',
          actions: assign({
            stop: ({ context }) =>
              invalidCallsStop(context.invalidCalls, context.limits.maxInvalidToolCalls) ?? undefined,
          }),
        },
        {
          guard: 'hardLimitReached',
          target: 'error',
          actions: assign({ stop: ({ context }) => budgetStop(hardStop(context) ?? 'turn_budget', context) }),
        },
        {
          guard: 'softLimitReached',
          target: 'awaitingModel',
          // The warning is a note in the context: its size counts before the next request.
          actions: [
            assign(({ context }) => ({ toolsWithheld: true, contextTokens: tokensAfterWarning(context) })),
            'warnBudget',
          ],
        },
        { target: 'awaitingModel' },
      ],
    },
    compacting: {
      // The context is over its limit: older turns are compacted (a journaled step), then the
      // budgets are checked again (a summary request has usage) before the next request.
      entry: [
        enter('compacting'),
        {
          type: 'compactContext',
          params: ({ context }) => compactParams(context),
        },
      ],
      on: {
        COMPACTED: [
          { guard: 'compactionMadeRoom', target: 'budgetCheck', actions: acceptCompaction },
          // Nothing old enough is left to compact: a request would exceed the limit.
          { target: 'error', actions: assign({ stop: ({ context }) => contextOverflowStop(context) }) },
        ],
        MODEL_ERROR: {
          target: 'error',
          actions: assign({ stop: ({ event }) => ({ reason: 'model_error', message: event.message }) }),
        },
      },
    },
    done: {
      type: 'final',
      entry: [enter('done'), 'finish'],
    },
    error: {
      type: 'final',
      entry: [enter('error'), 'stopping', 'cancelInFlight', 'fail'],
    },
  },
  output: ({ context }) => ({ response: context.response, output: context.output, stop: context.stop }),
});
