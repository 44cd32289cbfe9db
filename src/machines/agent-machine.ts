import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { Budget } from '../config/budget.js';
import { DEFAULT_MAX_TURNS } from '../config/config.js';
import { errorMessage } from '../core/errors.js';
import { addUsage, ZERO_USAGE } from '../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  AgentMachineInput,
  AgentStateName,
  ModelActorInput,
  ModelTurn,
  ToolActorInput,
  ToolSettledEvent,
} from './agent-machine-types.js';
import { budgetStop, hardStop } from './budget-rules.js';
import { readyRange } from './tool-schedule.js';

function notProvided(name: string): never {
  throw new Error(`agentMachine: the '${name}' actor is not provided; run it through Agent or machine.provide()`);
}

/** Id of the tool actor for call `index` of turn `turn`. */
export function toolActorId(turn: number, index: number): string {
  return `tool-${turn}-${index}`;
}

function isNewResult(context: AgentContext, event: ToolSettledEvent): boolean {
  return event.index >= 0 && event.index < context.calls.length && context.results[event.index] === undefined;
}

const enter = (state: AgentStateName) => ({ type: 'recordTransition', params: { to: state } }) as const;

const machineSetup = setup({
  types: {
    context: {} as AgentContext,
    events: {} as AgentMachineEvent,
    input: {} as AgentMachineInput | undefined,
  },
  actors: {
    callModel: fromPromise<ModelTurn, ModelActorInput>(async () => notProvided('callModel')),
    runTool: fromCallback<ToolSettledEvent, ToolActorInput>(() => notProvided('runTool')),
  },
  actions: {
    /** Effect: a state was entered (the agent journals the transition). */
    recordTransition: (_, _params: { to: AgentStateName }) => {},
    /** Effect: a model request is about to start. */
    recordTurnStart: () => {},
    /** Effect: a model turn completed (usage, and the assistant message when it asked for tools). */
    recordModelTurn: (_, _params: { turn: ModelTurn }) => {},
    /** Effect: append the turn's observations, in the model's order. */
    recordObservations: () => {},
    /** Effect: a soft limit was crossed; warn and ask for a final answer. */
    warnBudget: () => {},
    /** Effect: abort whatever is in flight (tools see their AbortSignal). */
    cancelInFlight: () => {},
    /** Effect: the run ended with an answer. */
    finish: () => {},
    /** Effect: the run ended without one. */
    fail: () => {},
  },
  guards: {
    turnAskedForTools: (_, params: { turn: ModelTurn }) => params.turn.toolCalls.length > 0,
    settlesLastTool: ({ context, event }) =>
      event.type === 'TOOL_SETTLED' && isNewResult(context, event) && context.settled + 1 >= context.calls.length,
    isAborting: ({ context }) => context.aborting !== undefined,
    isResuming: ({ context }) => context.resuming,
    hardLimitReached: ({ context }) => hardStop(context) !== null,
    softLimitReached: ({ context }) =>
      !context.toolsWithheld && context.budget.softLimit(context.turns, context.usage, context.elapsedMs) !== null,
  },
});

/** Starts the next calls the schedule allows, each as a spawned child actor. */
const startReadyTools = machineSetup.enqueueActions(({ context, enqueue }) => {
  const { from, to } = readyRange(context.concurrencySafe, context.nextToStart, context.running);
  if (from === to) return;
  enqueue.assign({ nextToStart: to, running: context.running + (to - from) });
  for (let index = from; index < to; index++) {
    const call = context.calls[index];
    if (call === undefined) continue;
    enqueue.spawnChild('runTool', {
      id: toolActorId(context.turns, index),
      input: { call, index, withheld: context.toolsWithheld },
    });
  }
});

/** Counts a model request, unless the run resumes with pending tool calls (no request then). */
const startTurn = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (context.resuming) return;
  enqueue.assign({ turns: context.turns + 1 });
  enqueue('recordTurnStart');
});

/** Keeps a settled call's result and stops its actor. */
const storeResult = machineSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'TOOL_SETTLED' || !isNewResult(context, event)) return;
  const results = context.results.slice();
  results[event.index] = event.result;
  enqueue.assign({
    results,
    settled: context.settled + 1,
    running: context.running - 1,
    elapsedMs: Math.max(context.elapsedMs, event.elapsedMs),
  });
  enqueue.stopChild(toolActorId(context.turns, event.index));
});

/**
 * The agent loop as an XState v5 machine: the one place where the loop decides.
 * Actors (`callModel`, `runTool`) and effect actions (`record*`, `finish`, `fail`, …) are named
 * here and implemented by `Agent` via `.provide()`; tests may provide their own.
 */
export const agentMachine = machineSetup.createMachine({
  id: 'agent',
  context: ({ input }) => ({
    budget: input?.budget ?? new Budget({ maxTurns: DEFAULT_MAX_TURNS }),
    turns: 0,
    usage: ZERO_USAGE,
    elapsedMs: 0,
    calls: input?.resume?.calls ?? [],
    concurrencySafe: input?.resume?.concurrencySafe ?? [],
    results: input?.resume?.calls.map(() => undefined) ?? [],
    resuming: (input?.resume?.calls.length ?? 0) > 0,
    settled: 0,
    nextToStart: 0,
    running: 0,
    toolsWithheld: false,
    aborting: undefined,
    stop: undefined,
    response: undefined,
  }),
  entry: enqueueActions(({ context, enqueue }) => {
    const limit = context.budget.maxWallClockMs;
    if (limit === undefined) return;
    const message = `time budget of ${limit} ms used up`;
    enqueue.raise({ type: 'ABORT', reason: 'time_budget', message }, { delay: limit, id: 'wallClock' });
  }),
  on: {
    ABORT: {
      target: '.error',
      actions: assign({ stop: ({ event }) => ({ reason: event.reason, message: event.message }) }),
    },
  },
  initial: 'awaitingModel',
  states: {
    awaitingModel: {
      entry: [enter('awaitingModel'), startTurn],
      always: { guard: 'isResuming', target: 'executingTools', actions: assign({ resuming: false }) },
      invoke: {
        id: 'model',
        src: 'callModel',
        input: ({ context }) => ({ toolsWithheld: context.toolsWithheld }),
        onDone: [
          {
            guard: { type: 'turnAskedForTools', params: ({ event }) => ({ turn: event.output }) },
            target: 'executingTools',
            actions: [
              assign(({ context, event }) => ({
                usage: addUsage(context.usage, event.output.usage),
                elapsedMs: event.output.elapsedMs,
                calls: event.output.toolCalls,
                concurrencySafe: event.output.concurrencySafe,
                results: event.output.toolCalls.map(() => undefined),
                settled: 0,
                nextToStart: 0,
                running: 0,
              })),
              { type: 'recordModelTurn', params: ({ event }) => ({ turn: event.output }) },
            ],
          },
          {
            target: 'done',
            actions: [
              assign(({ context, event }) => ({
                usage: addUsage(context.usage, event.output.usage),
                elapsedMs: event.output.elapsedMs,
                response: event.output.text,
              })),
              { type: 'recordModelTurn', params: ({ event }) => ({ turn: event.output }) },
            ],
          },
        ],
        onError: {
          target: 'error',
          actions: assign({ stop: ({ event }) => ({ reason: 'model_error', message: errorMessage(event.error) }) }),
        },
      },
    },
    executingTools: {
      entry: [enter('executingTools'), startReadyTools],
      on: {
        TOOL_SETTLED: [
          {
            guard: 'settlesLastTool',
            target: 'observing',
            actions: storeResult,
          },
          { actions: [storeResult, startReadyTools] },
        ],
        ABORT: {
          actions: [
            assign({
              aborting: ({ context, event }) => context.aborting ?? { reason: event.reason, message: event.message },
            }),
            'cancelInFlight',
          ],
        },
      },
    },
    observing: {
      entry: [enter('observing'), 'recordObservations'],
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
          guard: 'hardLimitReached',
          target: 'error',
          actions: assign({ stop: ({ context }) => budgetStop(hardStop(context) ?? 'turn_budget', context) }),
        },
        {
          guard: 'softLimitReached',
          target: 'awaitingModel',
          actions: [assign({ toolsWithheld: true }), 'warnBudget'],
        },
        { target: 'awaitingModel' },
      ],
    },
    done: {
      type: 'final',
      entry: [enter('done'), 'finish'],
    },
    error: {
      type: 'final',
      entry: [enter('error'), 'cancelInFlight', 'fail'],
    },
  },
  output: ({ context }) => ({ response: context.response, stop: context.stop }),
});
