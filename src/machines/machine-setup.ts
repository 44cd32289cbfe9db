import { type Spawner, setup } from 'xstate';
import type { ApprovalRequestParams, DecisionParams } from '../core/approval-types.js';
import { type GuardrailVerdict, stopsRun } from '../core/guardrail.js';
import type { TokenUsage } from '../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  AgentMachineInput,
  AgentStateName,
  CheckGuardrailsParams,
  CompactedEvent,
  CompactParams,
  HandoffParams,
  ModelRequestParams,
  ModelTurn,
  ModelTurnEvent,
  RejectOutputParams,
  ReportParams,
  ToolResultParams,
  ToolSettledEvent,
} from './agent-machine-types.js';
import { blockedOnApproval, waitingIndex } from './approval-gate.js';
import { hardStop, treeStop } from './budget-rules.js';
import { contextOverLimit } from './context-rules.js';
import { invalidCallsStop } from './invalid-calls.js';
import { outputRetryLeft, rejectedOutput } from './output-rules.js';
import { type ToolActorLogic, toolActorLogic } from './tool-actor-logic.js';

function notProvided(name: string): never {
  throw new Error(`agentMachine: the '${name}' actor is not provided; run it through Agent or machine.provide()`);
}

/** Whether `event` settles a call of the turn that has no result yet. */
export function isNewResult(context: AgentContext, event: AgentMachineEvent): event is ToolSettledEvent {
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

/**
 * The agent machine's vocabulary: its types, the tool actor (`runTool`), the named effects (no-op
 * actions that `Agent` implements via `.provide()`, `src/agent/provide-machine.ts`) and the guards.
 */
export const machineSetup = setup({
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
     * request); it answers with `MODEL_TURN` or `MODEL_ERROR`, or `TOOL_SOURCE_ERROR` when a
     * tool source could not be refreshed before the request.
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
    /**
     * Effect: run one stage's guardrails on a value (the agent runs each check with the run's
     * signal); it answers with `GUARDRAIL_CHECKED`. The machine decides what the verdicts do.
     */
    checkGuardrails: (_, _params: CheckGuardrailsParams) => {},
    /** Effect: journal guardrail verdicts (and the usage of their own model requests). */
    recordGuardrails: (_, _params: { verdicts: readonly GuardrailVerdict[]; usage: TokenUsage }) => {},
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
    inputUnchecked: ({ context, event }) => event.type === 'MODEL_TURN' && context.guardrails.inputChecking,
    resultNeedsGuardrails: ({ context, event }) =>
      context.guardrails.toolResult &&
      isNewResult(context, event) &&
      event.checked !== true &&
      !context.guardrails.checking.includes(event.index),
    answerNeedsGuardrails: ({ context }) => context.guardrails.output,
    guardrailTripped: ({ event }) => event.type === 'GUARDRAIL_CHECKED' && event.verdicts.some(stopsRun),
    inputChecked: ({ event }) => event.type === 'GUARDRAIL_CHECKED' && event.stage === 'input',
    outputChecked: ({ event }) => event.type === 'GUARDRAIL_CHECKED' && event.stage === 'output',
    resultChecked: ({ context, event }) =>
      event.type === 'GUARDRAIL_CHECKED' &&
      event.stage === 'toolResult' &&
      event.settled !== undefined &&
      context.guardrails.checking.includes(event.settled.index) &&
      isNewResult(context, event.settled),
    softLimitReached: ({ context }) =>
      !context.toolsWithheld &&
      context.limits.budget.softLimit(context.turns, context.usage, context.elapsedMs) !== null,
  },
});

/** The `enqueue` a step built with `machineSetup.enqueueActions` is given. */
export type Enqueue = Parameters<Parameters<typeof machineSetup.enqueueActions>[0]>[0]['enqueue'];
/** The `spawn` an `assign` is given, for tool actors. */
export type Spawn = Spawner<{ src: 'runTool'; logic: ToolActorLogic; id: string | undefined }>;
/** What a step's functions of the context and event (action params, assigns) are given. */
export type StepArgs = { readonly context: AgentContext; readonly event: AgentMachineEvent };
/** A context update a step builds up before handing it to XState. */
export type ContextUpdate = { -readonly [K in keyof AgentContext]?: AgentContext[K] };
