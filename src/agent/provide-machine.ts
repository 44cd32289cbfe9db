import type { Actor, AnyActorLogic, AnyActorRef } from 'xstate';
import { AgentEvent } from '../core/agent-event.js';
import { errorMessage, HarnessError } from '../core/errors.js';
import { isPromiseLike } from '../core/promise-like.js';
import { type EventBus, isDelivered } from '../events/event-bus.js';
import { agentMachine } from '../machines/agent-machine.js';
import type {
  AgentContext,
  AgentMachineEvent,
  AgentStateName,
  ModelTurn,
  ToolActorInput,
  ToolSettledEvent,
} from '../machines/agent-machine-types.js';
import { type ToolCallRunner, toolActorLogic } from '../machines/tool-actor-logic.js';
import type { Session } from '../session/session.js';
import { ToolResult, toolMessageContent } from '../tools/tool-result.js';
import { softLimitMessage, TOOLS_WITHHELD_ERROR } from './budget-message.js';
import type { CompletionOrder } from './completion-order.js';
import { readModelStream } from './model-turn.js';

/** How a tool actor reports its call's outcome. */
type ToolSettle = (event: ToolSettledEvent) => void;

/** The state of one run, shared by the provided actors and actions. */
export interface RunHandle {
  readonly actor: Actor<AnyActorLogic>;
  /** Aborted to cancel the tools in flight. */
  readonly controller: AbortController;
  readonly startedAt: number;
  /** The state last entered. */
  state: AgentStateName | undefined;
  /** Set once the terminal event was emitted. */
  finished: boolean;
  /** Resolves when the machine has stopped. */
  settled: Promise<void>;
  /** Undoes the run's subscriptions. */
  release: () => void;
  /** Emits an event of this run on the bus (runs of agents sharing a bus tell theirs apart). */
  readonly emit: (event: AgentEvent) => Promise<void>;
  /** Puts each turn's tool outcomes in the model's order. */
  readonly completions: CompletionOrder;
  /** Ends the run with `internal_error` (a bug in the loop, never a tool's or a model's failure). */
  readonly fail: (error: unknown) => void;
}

/** What the provided implementations need. */
export interface MachineDeps {
  readonly session: Session;
  readonly bus: EventBus;
  /** The run in progress. */
  readonly current: () => RunHandle | undefined;
  readonly now: () => number;
}

// One provided machine for every agent: `machine.provide()` per agent cost ~170 µs and ~19 KB
// (it rebuilds the state-node tree, and XState's per-machine caches start cold), so the
// implementations find their agent through the run's actor system instead of a closure.
const bindings = new WeakMap<object, MachineDeps>(); // keyed by the run's actor system

/** Binds a run's actor (before it starts) to the agent it runs for. */
export function bindAgentRun(actor: Actor<AnyActorLogic>, deps: MachineDeps): void {
  bindings.set(actor.system, deps);
}

function depsOf(system: object): MachineDeps {
  const deps = bindings.get(system);
  if (deps === undefined) throw new Error('agent machine is running without an agent: use Agent, or bindAgentRun()');
  return deps;
}

function activeRun(deps: MachineDeps): RunHandle {
  const run = deps.current();
  if (run === undefined) throw new Error('agent machine is running without an active run');
  return run;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new HarnessError('model_error', 'the model request was aborted');
}

/** Streams one model request and annotates the turn for the machine. */
async function requestTurn(deps: MachineDeps, run: RunHandle, toolsWithheld: boolean): Promise<ModelTurn> {
  const { session, bus } = deps;
  const { signal } = run.controller;
  await bus.idle(); // backpressure: subscribers catch up before the next request
  throwIfAborted(signal);
  const client = session.client;
  if (client === undefined) throw new HarnessError('no_client', 'the session has no model client');
  const tools = toolsWithheld ? undefined : session.registry.definitions();
  // A shallow copy (messages are frozen): a client may keep what it was sent. It costs one
  // pointer per message, far below the machine's own per-turn work even at 1,000 turns.
  const messages = session.messages.slice();
  const { text, toolCalls, usage, finishReason } = await readModelStream(
    client.chatCompletion(messages, tools, { signal }),
    (delta) => {
      throwIfAborted(signal);
      return run.emit(AgentEvent.textDelta(delta));
    },
  );
  throwIfAborted(signal);
  if (text !== '') await run.emit(AgentEvent.textComplete(text));
  const concurrencySafe = toolCalls.map((call) => session.registry.isConcurrencySafe(call.name));
  const elapsedMs = deps.now() - run.startedAt;
  // Built whole rather than spread: on Node 20 a spread that adds keys costs ~1 µs.
  return finishReason === undefined
    ? { text, toolCalls, usage, concurrencySafe, elapsedMs }
    : { text, toolCalls, usage, finishReason, concurrencySafe, elapsedMs };
}

/** Sends the request's outcome, unless the run already ended (a late answer changes nothing). */
function answer(self: AnyActorRef, event: AgentMachineEvent): void {
  if (self.getSnapshot().status === 'active') self.send(event);
}

/** The `requestModel` effect: journal the turn's start and stream the request in the background. */
function requestModel(self: AnyActorRef, system: object, toolsWithheld: boolean): void {
  const deps = depsOf(system);
  const run = activeRun(deps);
  deps.session.startTurn();
  requestTurn(deps, run, toolsWithheld).then(
    (turn) => answer(self, { type: 'MODEL_TURN', turn }),
    (error: unknown) => answer(self, { type: 'MODEL_ERROR', message: errorMessage(error) }),
  );
}

/**
 * Runs one tool call of the run bound to `system`: announce, invoke, announce the result,
 * settle. Each step goes on at once when the one before finished synchronously (subscribers
 * that return nothing, a tool that answers at once), so such a call costs no microtask.
 */
const runToolCall: ToolCallRunner = (input, settle, system) => {
  const deps = depsOf(system);
  const run = activeRun(deps);
  if (run.state === undefined) {
    // A resumed run's pending calls are spawned by the machine's first step, and XState starts
    // those children before it runs that step's effects: wait for them (the journaled move into
    // executingTools), so that the calls are announced after it, as on every other turn.
    void Promise.resolve().then(() => runToolCall(input, settle, system));
    return;
  }
  run.completions.started(input.index);
  const announced = run.emit(AgentEvent.toolCallStart(input.call));
  if (isDelivered(announced)) invokeTool(deps, run, input, settle);
  else announced.then(() => invokeTool(deps, run, input, settle)).catch(run.fail);
};

function invokeTool(deps: MachineDeps, run: RunHandle, input: ToolActorInput, settle: ToolSettle): void {
  const { call } = input;
  // The run's own signal, not AbortSignal.any per call (on Node 20 that cost ~16 µs and a
  // WeakRef per call, a fifth of the harness's CPU per turn, see docs/performance.md). A run
  // that stops aborts it (`cancelInFlight`), which is the only way a call in flight is stopped.
  const result = input.withheld
    ? ToolResult.error(TOOLS_WITHHELD_ERROR)
    : deps.session.registry.invokeEager(call.name, call.arguments, {
        callId: call.callId,
        signal: run.controller.signal,
      });
  if (isPromiseLike(result)) result.then((settled) => completeTool(deps, run, input, settled, settle)).catch(run.fail);
  else completeTool(deps, run, input, result, settle);
}

/** Announces a call's result, in the model's order (see CompletionOrder), then reports it to the machine. */
function completeTool(
  deps: MachineDeps,
  run: RunHandle,
  input: ToolActorInput,
  result: ToolResult,
  settle: ToolSettle,
): void {
  run.completions.complete(input.index, () => {
    const announced = run.emit(AgentEvent.toolCallComplete(input.call, result));
    const settleNow = (): void =>
      settle({ type: 'TOOL_SETTLED', index: input.index, result, elapsedMs: deps.now() - run.startedAt });
    if (isDelivered(announced)) {
      settleNow();
      return undefined;
    }
    return announced.then(settleNow);
  });
}

function recordObservations(session: Session, context: AgentContext): void {
  context.calls.forEach((call, i) => {
    const result = context.results[i] ?? ToolResult.error('no result was recorded for this call');
    session.addToolResult({ callId: call.callId, content: toolMessageContent(result) });
  });
}

/**
 * The agent machine with the agent's actors and effects provided, made once; each run's actor
 * is bound to its agent's session and bus with {@link bindAgentRun}.
 */
export function provideAgentMachine() {
  return agentMachine.provide({
    actors: { runTool: toolActorLogic(runToolCall) },
    actions: {
      recordTransition: ({ event, system }, { to }) => {
        const deps = depsOf(system);
        const run = activeRun(deps);
        const from = run.state;
        run.state = to;
        if (from !== undefined) deps.bus.record(deps.session.recordTransition(from, to, event.type));
      },
      requestModel: ({ self, system }, { toolsWithheld }) => requestModel(self, system, toolsWithheld),
      recordModelTurn: ({ system }, { turn }) => {
        const { session } = depsOf(system);
        session.trackUsage(turn.usage);
        if (turn.toolCalls.length > 0) session.addAssistantMessage(turn.text, turn.toolCalls);
      },
      recordObservations: ({ context, system }) => recordObservations(depsOf(system).session, context),
      warnBudget: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const hit = context.budget.softLimit(context.turns, context.usage, context.elapsedMs);
        if (hit === null) return;
        const message = softLimitMessage(hit);
        session.recordBudgetWarning(hit.budget, hit.used);
        session.addHarnessMessage(message);
        const softLimitRatio = context.budget.softLimitRatio ?? 1;
        void activeRun(deps).emit(
          AgentEvent.budgetWarning({ budget: hit.budget, used: hit.used, softLimitRatio, message }),
        );
      },
      cancelInFlight: ({ context, system }) => {
        const run = activeRun(depsOf(system));
        if (!run.controller.signal.aborted)
          run.controller.abort(context.stop?.message ?? context.aborting?.message ?? 'stopped');
      },
      finish: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const response = context.response ?? '';
        session.recordEnd(response);
        void run.emit(AgentEvent.agentEnd(response, session.totalUsage, session.turnCount));
      },
      fail: ({ context, system }) => {
        const deps = depsOf(system);
        const { session } = deps;
        const run = activeRun(deps);
        run.finished = true;
        const stop = context.stop ?? { reason: 'internal_error' as const, message: 'the run stopped without a reason' };
        session.recordError(stop.reason, stop.message);
        void run.emit(AgentEvent.agentError(stop.reason, stop.message));
      },
    },
  });
}

/** The type of {@link provideAgentMachine}'s result. */
export type ProvidedAgentMachine = ReturnType<typeof provideAgentMachine>;

/** The provided machine every `Agent` runs. */
export const agentRunMachine: ProvidedAgentMachine = provideAgentMachine();
