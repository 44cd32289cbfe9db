import { assign, enqueueActions } from 'xstate';
import type { AgentStateName } from './agent-machine-types.js';
import { decide, requestApprovals, suspend } from './approval-steps.js';
import { budgetStop, hardStop, treeStop } from './budget-rules.js';
import { contextOverflowStop, tokensAfterWarning } from './context-rules.js';
import {
  checkOutput,
  checkResult,
  holdTurn,
  passInput,
  passOutput,
  settleCheckedResult,
  stopOnGuardrail,
} from './guardrail-steps.js';
import { initialContext } from './initial-context.js';
import { invalidCallsStop } from './invalid-calls.js';
import { machineSetup } from './machine-setup.js';
import { abortTools, handOff, settleLastTool, settleTool, startPendingCalls } from './tool-steps.js';
import {
  acceptAnswer,
  acceptCompaction,
  acceptGatedToolTurn,
  adoptToolTurn,
  compactParams,
  recordModelTurn,
  refuseOutput,
  retryOutput,
  startTurn,
} from './turn-steps.js';

export { MAIN_AGENT } from './initial-context.js';
export { toolActorId } from './tool-actor-id.js';

const enter = (state: AgentStateName) => ({ type: 'recordTransition', params: { to: state } }) as const;

/**
 * The agent loop as an XState v5 machine: the one place where the loop decides.
 * The tool actor (`runTool`), the effects (`requestModel`, `record*`, `finish`, `fail`, …) and the
 * guards are named in machine-setup.ts; `Agent` implements the effects via `.provide()`
 * (`src/agent/provide-machine.ts`), and tests may provide their own.
 */
export const agentMachine = machineSetup.createMachine({
  id: 'agent',
  context: ({ input }) => initialContext(input),
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
          // The input's guardrails have not answered yet: the turn waits for their verdict.
          { guard: 'inputUnchecked', actions: holdTurn },
          { guard: 'turnAskedForTools', target: 'executingTools', actions: [recordModelTurn, adoptToolTurn] },
          { guard: 'turnAskedForGatedTools', target: 'executingTools', actions: acceptGatedToolTurn },
          // A structured answer that fails its schema goes back (a turn, so budgets decide), or stops the run.
          { guard: 'outputRejectedWithRetry', target: 'budgetCheck', actions: retryOutput },
          { guard: 'outputRejected', target: 'error', actions: [refuseOutput, recordModelTurn] },
          { guard: 'answerNeedsGuardrails', target: 'guardingOutput', actions: [acceptAnswer, recordModelTurn] },
          { target: 'done', actions: [acceptAnswer, recordModelTurn] },
        ],
        // A tripwire on the input ends the run; entering `error` cancels the request in flight.
        GUARDRAIL_CHECKED: [
          { guard: 'guardrailTripped', target: 'error', actions: stopOnGuardrail },
          { guard: 'inputChecked', actions: passInput },
        ],
        MODEL_ERROR: {
          target: 'error',
          actions: assign({ stop: ({ event }) => ({ reason: 'model_error', message: event.message }) }),
        },
        // The model did nothing wrong: a tool source could not be refreshed before the request.
        TOOL_SOURCE_ERROR: {
          target: 'error',
          actions: assign({ stop: ({ event }) => ({ reason: 'mcp_error', message: event.message }) }),
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
          // No result is journaled, reported or sent on before its guardrails passed (or replaced it).
          { guard: 'resultNeedsGuardrails', actions: checkResult },
          { guard: 'settlesLastResult', target: 'observing', actions: settleLastTool },
          { guard: 'settlesNewResult', actions: settleTool },
        ],
        GUARDRAIL_CHECKED: { guard: 'resultChecked', actions: settleCheckedResult },
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
    guardingOutput: {
      // The final answer waits for the output guardrails: it passes (perhaps replaced) or the run stops.
      entry: [enter('guardingOutput'), checkOutput],
      on: {
        GUARDRAIL_CHECKED: [
          { guard: 'guardrailTripped', target: 'error', actions: stopOnGuardrail },
          { guard: 'outputChecked', target: 'done', actions: passOutput },
        ],
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
