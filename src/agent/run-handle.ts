import type { Actor, AnyActorLogic } from 'xstate';
import type { GuardrailSettings } from '../config/guardrail-options.js';
import type { AgentEvent } from '../core/agent-event.js';
import type { LazyAbort } from '../core/lazy-abort.js';
import type { ReasoningContent } from '../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../core/model-client.js';
import type { EventBus } from '../events/event-bus.js';
import type { AgentStateName } from '../machines/agent-machine-types.js';
import type { Session } from '../session/session.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Agent } from './agent.js';
import type { ChildAgentRun } from './agent-run-context.js';
import type { RunOutput } from './output-check.js';
import type { TreeSpend } from './tree-spend.js';

/** The state of one run, shared by the provided actors and actions. */
export interface RunHandle {
  readonly actor: Actor<AnyActorLogic>;
  /**
   * Aborted to cancel the model request in flight (each tool call has its own, in its actor);
   * its `AbortSignal` is made only when a client reads it.
   */
  readonly modelAbort: LazyAbort;
  /** Aborted when the run stops: the signal of every guardrail check of the run. */
  readonly guardrailAbort: LazyAbort;
  /** The options of every model request of the run, made once (its `signal` is made on first read). */
  readonly requestOptions: ChatCompletionOptions;
  readonly startedAt: number;
  /** The state last entered. */
  state: AgentStateName | undefined;
  /** Calls of the current turn whose `tool_call_start` this run emitted (emptied as each request starts). */
  readonly announced: Set<string>;
  /** Set once the terminal event was emitted. */
  finished: boolean;
  /** Resolves when the machine has stopped. */
  settled: Promise<void>;
  /** Undoes the run's subscriptions. */
  release: () => void;
  /** Emits an event of this run on the bus (runs of agents sharing a bus tell theirs apart). */
  readonly emit: (event: AgentEvent) => Promise<void>;
  /** Emits as `emit` does, for an effect that does not wait for the delivery: no promise is made. */
  readonly post: (event: AgentEvent) => void;
  /**
   * Resolves once the reader of `run()` has taken every event so far and asks for the next;
   * `undefined` when it has, or nobody reads (deltas are not held for it: a streamed turn waits
   * for it before anything after the turn goes on).
   */
  readonly readerCaughtUp: () => Promise<void> | undefined;
  /** Ends the run with `internal_error` (a bug in the loop, never a tool's or a model's failure). */
  readonly fail: (error: unknown) => void;
  /**
   * The tools the current turn's calls are decided against and run with: those of the agent in
   * charge when the turn was asked. A handoff among the calls changes the tools of the next
   * request, never of the calls beside it (a call to a tool of the agent handed to is unknown).
   */
  registry: ToolRegistry;
  /** The structured output the run asked for (`run(input, { output })`), if any. */
  readonly output?: RunOutput;
  /** What the run and its sub-agents spent so far, charged as each request reports its usage. */
  readonly spend: TreeSpend;
  /** The last turn's reasoning parts: the final answer's, journaled with it when the run ends. */
  lastReasoning?: readonly ReasoningContent[] | undefined;
}

/** What the provided implementations need. */
export interface MachineDeps {
  readonly session: Session;
  /** The agent's model client (none: a run ends with `no_client`). */
  readonly client: ModelClient | undefined;
  /** The agent's guardrails (`Config.guardrails`). */
  readonly guardrails: GuardrailSettings;
  /** The cap on one image or file a guardrail's replacement holds (`Config.maxAttachmentBytes`). */
  readonly maxAttachmentBytes: number;
  /** The agent's own tools, which tool sources refresh. */
  readonly tools: ToolRegistry;
  /** The tools of the agent in charge now (after a handoff, those of the agent handed to). */
  readonly activeTools: () => ToolRegistry;
  readonly bus: EventBus;
  /** The run in progress. */
  readonly current: () => RunHandle | undefined;
  readonly now: () => number;
  /** Refreshed into the registry between turns (MCP tool lists). */
  readonly toolSources: readonly { refresh(registry: ToolRegistry): unknown; listed?(): Promise<void> }[];
  /** How deeply the agent is nested under others (0 for a top-level agent). */
  readonly depth: number;
  /** Receives the child agents its tool calls start (`agentTool`). */
  readonly adopt: (child: ChildAgentRun) => void;
  /** Asks this agent's approver about a sub-agent's call (`ToolRunContext.relayApproval`). */
  readonly relayApproval: (name: string, request: AgentEvent<'tool_approval_request'>['data'], child: Agent) => void;
}

// One provided machine for every agent: `machine.provide()` per agent rebuilds the state-node
// tree, and XState's per-machine caches start cold, so the implementations find their agent
// through the run's actor system instead of a closure. Cost: docs/performance.md.
const bindings = new WeakMap<object, MachineDeps>(); // keyed by the run's actor system

/** Binds a run's actor (before it starts) to the agent it runs for. */
export function bindAgentRun(actor: Actor<AnyActorLogic>, deps: MachineDeps): void {
  bindings.set(actor.system, deps);
}

/**
 * Unbinds a run's actor once it has stopped. A `WeakMap` entry that is never deleted keeps its
 * value through every young collection until a full one: bound, each finished run's entry kept
 * the agent's session, bus and journal alive into the old generation (see `bench/cases/heap.ts`,
 * docs/performance.md).
 */
export function unbindAgentRun(actor: Actor<AnyActorLogic>): void {
  bindings.delete(actor.system);
}

/** The agent a run's actor system is bound to, or undefined once the run has been unbound. */
export function boundDeps(system: object): MachineDeps | undefined {
  return bindings.get(system);
}

/** The agent a run's actor system was bound to. */
export function depsOf(system: object): MachineDeps {
  const deps = boundDeps(system);
  if (deps === undefined) throw new Error('agent machine is running without an agent: use Agent, or bindAgentRun()');
  return deps;
}

/** The agent's run in progress. */
export function activeRun(deps: MachineDeps): RunHandle {
  const run = deps.current();
  if (run === undefined) throw new Error('agent machine is running without an active run');
  return run;
}
