import { assign, enqueueActions, setup, stopChild } from 'xstate';
import { Budget } from '../config/budget.js';
import { DEFAULT_MAX_TURNS } from '../config/config.js';
import { addUsage, ZERO_USAGE } from '../core/usage.js';
import type {
  AgentContext,
  AgentMachineEvent,
  AgentMachineInput,
  AgentStateName,
  ModelRequestParams,
  ModelTurn,
  ToolActorInput,
  ToolSettledEvent,
} from './agent-machine-types.js';
import { budgetStop, hardStop } from './budget-rules.js';
import { toolActorLogic } from './tool-actor-logic.js';
import { readyRange } from './tool-schedule.js';

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
    event.index < context.calls.length &&
    context.results[event.index] === undefined
  );
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
    /** Effect: append the turn's observations, in the model's order. */
    recordObservations: () => {},
    /** Effect: a soft limit was crossed; warn and ask for a final answer. */
    warnBudget: () => {},
    /** Effect: abort whatever is in flight (the model request, and tools through their AbortSignal). */
    cancelInFlight: () => {},
    /** Effect: the run ended with an answer. */
    finish: () => {},
    /** Effect: the run ended without one. */
    fail: () => {},
  },
  guards: {
    turnAskedForTools: ({ event }) => event.type === 'MODEL_TURN' && event.turn.toolCalls.length > 0,
    settlesNewResult: ({ context, event }) => isNewResult(context, event),
    settlesLastTool: ({ context, event }) => isNewResult(context, event) && context.settled + 1 >= context.calls.length,
    isAborting: ({ context }) => context.aborting !== undefined,
    isResuming: ({ context }) => context.resuming,
    hardLimitReached: ({ context }) => hardStop(context) !== null,
    softLimitReached: ({ context }) =>
      !context.toolsWithheld && context.budget.softLimit(context.turns, context.usage, context.elapsedMs) !== null,
  },
});

type SpawnTool = (src: 'runTool', options: { id: string; input: ToolActorInput }) => unknown;
type ToolProgress = Pick<AgentContext, 'results' | 'settled' | 'nextToStart' | 'running'>;

/**
 * Starts the calls the schedule allows, each as a spawned child actor, and returns the new
 * progress. Called from inside an `assign`, so starting a batch and the context change that
 * goes with it cost XState one snapshot copy, not one per child plus one.
 */
function startReadyTools(context: AgentContext, progress: ToolProgress, spawn: SpawnTool): ToolProgress {
  const { from, to } = readyRange(context.concurrencySafe, progress.nextToStart, progress.running);
  for (let index = from; index < to; index++) {
    const call = context.calls[index];
    if (call === undefined) continue;
    spawn('runTool', {
      id: toolActorId(index),
      input: { call, index, withheld: context.toolsWithheld },
    });
  }
  return {
    results: progress.results,
    settled: progress.settled,
    nextToStart: to,
    running: progress.running + (to - from),
  };
}

/** A resumed run: hand the pending calls to `executingTools` and start the first batch. */
const startPendingCalls = machineSetup.assign(({ context, spawn }) => ({
  resuming: false,
  ...startReadyTools(context, context, spawn),
}));

/** Keeps a settled call's result, then starts whatever the schedule now allows. */
const storeResult = machineSetup.assign(({ context, event, spawn }) => {
  if (!isNewResult(context, event)) return {};
  const results = context.results.slice();
  results[event.index] = event.result;
  const progress = {
    results,
    settled: context.settled + 1,
    nextToStart: context.nextToStart,
    running: context.running - 1,
  };
  return { elapsedMs: Math.max(context.elapsedMs, event.elapsedMs), ...startReadyTools(context, progress, spawn) };
});

/** Stops the actor of the call that just settled. */
const stopSettledTool = stopChild<AgentContext, AgentMachineEvent, undefined, AgentMachineEvent>(({ event }) =>
  toolActorId(event.type === 'TOOL_SETTLED' ? event.index : -1),
);

/** Starts a model request, unless the run resumes with pending tool calls. */
const startTurn = machineSetup.enqueueActions(({ context, enqueue }) => {
  if (!context.resuming) enqueue({ type: 'requestModel', params: { toolsWithheld: context.toolsWithheld } });
});

/**
 * A turn that asked for tools: count it, add its usage, adopt its calls and start the first
 * batch. (A turn is counted when its answer arrives: budgets are only checked after that.)
 */
const acceptToolTurn = machineSetup.assign(({ context, event, spawn }) => {
  if (event.type !== 'MODEL_TURN') return {};
  const { turn } = event;
  const adopted: AgentContext = {
    ...context,
    turns: context.turns + 1,
    usage: addUsage(context.usage, turn.usage),
    elapsedMs: turn.elapsedMs,
    calls: turn.toolCalls,
    concurrencySafe: turn.concurrencySafe,
  };
  const fresh = { results: turn.toolCalls.map(() => undefined), settled: 0, nextToStart: 0, running: 0 };
  return { ...adopted, ...startReadyTools(adopted, fresh, spawn) };
});

/** A turn that answered: count it, add its usage, keep the answer. */
const acceptAnswer = machineSetup.assign(({ context, event }) => {
  if (event.type !== 'MODEL_TURN') return {};
  const { turn } = event;
  return {
    turns: context.turns + 1,
    usage: addUsage(context.usage, turn.usage),
    elapsedMs: turn.elapsedMs,
    response: turn.text,
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
      always: { guard: 'isResuming', target: 'executingTools', actions: startPendingCalls },
      on: {
        MODEL_TURN: [
          { guard: 'turnAskedForTools', target: 'executingTools', actions: [acceptToolTurn, recordModelTurn] },
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
      // at a time, see startReadyTools); `meta.spawns` names them for diagrams.
      meta: { spawns: ['runTool'] },
      entry: enter('executingTools'),
      on: {
        TOOL_SETTLED: [
          { guard: 'settlesLastTool', target: 'observing', actions: [storeResult, stopSettledTool] },
          { guard: 'settlesNewResult', actions: [storeResult, stopSettledTool] },
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
