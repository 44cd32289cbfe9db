import { addUsage } from '../core/usage.js';
import { advanceTools, spawnCalls } from './advance-tools.js';
import type {
  AgentContext,
  AgentMachineEvent,
  CompactParams,
  ModelTurn,
  ModelTurnEvent,
} from './agent-machine-types.js';
import { type GatedCalls, gateCalls, verdictDecision } from './approval-gate.js';
import { treeStop } from './budget-rules.js';
import { contextOverLimit, tokensAfterRetry } from './context-rules.js';
import { inputCheckStarts } from './guardrail-steps.js';
import { type ContextUpdate, machineSetup } from './machine-setup.js';
import { outputInvalidStop, rejectedOutput } from './output-rules.js';
import { batchOf, newBatch, type ToolProgress, UNGATED } from './tool-batch.js';
import { readyRange } from './tool-schedule.js';

/**
 * Starts a model request (and the input's guardrails beside the first), unless the run resumes with pending tool calls, the context must be
 * compacted first, or a sub-agent's tree is out of budget (the state's `always` transitions take over).
 */
export const startTurn = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (context.resuming || contextOverLimit(context) || context.stop !== undefined || treeStop(context) !== null) return;
  enqueue({ type: 'requestModel', params: { toolsWithheld: context.toolsWithheld } });
  // The input's guardrails run beside the first request; its answer waits for their verdict.
  if (inputCheckStarts(context)) {
    enqueue({ type: 'checkGuardrails', params: { stage: 'input', turn: context.turns } });
    enqueue.assign({ guardrails: { ...context.guardrails, inputChecking: true } });
  }
});

/** What the `compactContext` effect is given: the context's size, and how it was scaled. */
export function compactParams(context: AgentContext): CompactParams {
  const { contextTokens: tokens, tokenScale, reportedTokenScale } = context;
  return reportedTokenScale === undefined ? { tokens, tokenScale } : { tokens, tokenScale, reportedTokenScale };
}

/** A compaction made room: journal it, count its summary's usage, and take the context's new size. */
export const acceptCompaction = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'COMPACTED' || event.compaction === undefined) return;
  enqueue({ type: 'recordCompaction', params: { event } });
  enqueue.assign({
    usage: addUsage(context.usage, event.usage),
    elapsedMs: Math.max(context.elapsedMs, event.elapsedMs),
    contextTokens: event.compaction.tokensAfter,
  });
});

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
export const adoptToolTurn = machineSetup.assign(({ context, event, spawn }) => {
  const { turn } = event as ModelTurnEvent;
  const { toolCalls, concurrencySafe } = turn;
  const gated: GatedCalls = {
    calls: toolCalls,
    concurrencySafe,
    answers: UNGATED,
    permissions: UNGATED,
    decisions: UNGATED,
    rules: UNGATED,
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
export const acceptGatedToolTurn = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'MODEL_TURN') return;
  const { turn } = event;
  const { toolCalls: calls, concurrencySafe, permissions, verdicts } = turn;
  const tools = newBatch(
    gateCalls(
      permissions === undefined
        ? { calls, concurrencySafe }
        : {
            calls,
            concurrencySafe,
            permissions,
            rules: verdicts?.map((verdict) => verdict.rule),
            decisions: verdicts?.map(verdictDecision),
          },
    ),
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
export const acceptAnswer = machineSetup.assign(({ context, event }) => {
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
export const retryOutput = machineSetup.enqueueActions(({ context, event, enqueue }) => {
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
export const refuseOutput = machineSetup.assign(({ context, event }) => {
  const problem = rejectedOutput(event);
  if (event.type !== 'MODEL_TURN' || problem === undefined) return {};
  return {
    turns: context.turns + 1,
    usage: addUsage(context.usage, event.turn.usage),
    elapsedMs: event.turn.elapsedMs,
    stop: outputInvalidStop(context, problem),
  };
});

/** Effect: record the turn the event brings (`recordModelTurn`, with the event's turn as params). */
export const recordModelTurn = {
  type: 'recordModelTurn',
  params: ({ event }: { event: AgentMachineEvent }) => ({ turn: (event as { turn: ModelTurn }).turn }),
} as const;
