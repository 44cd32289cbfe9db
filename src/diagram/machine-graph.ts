import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { childGraphs } from './child-graphs.js';
import type { DiagramOptions } from './diagram-options.js';

/** A state of the machine, as drawn. */
export interface GraphState {
  readonly id: string;
  readonly final: boolean;
  /** Actors invoked while in the state (their `src`). */
  readonly invokes: readonly string[];
  /** Actors the state spawns as children (see {@link GraphActor.spawned}). */
  readonly spawns: readonly string[];
  /** Named entry actions. */
  readonly entry: readonly string[];
  /**
   * Machines a spawned actor may run in turn, declared in `meta.nests` (`runTool` runs a child
   * `agent` machine for a sub-agent tool): drawn under the actor that runs them.
   */
  readonly nests?: readonly NestedMachine[];
  /**
   * The machines of the child agents the state's spawned actors run, drawn from each agent
   * tool of {@link DiagramOptions.registry} (absent without one).
   */
  readonly children?: readonly ChildMachineGraph[];
}

/** A child agent's machine, drawn under the state whose spawned actor runs it (an `agentTool` call). */
export interface ChildMachineGraph {
  /** The spawned actor that runs it (`runTool`). */
  readonly actor: string;
  /** The agent tool's name. */
  readonly name: string;
  /** The depth the child runs at (1 under a top-level agent). */
  readonly depth: number;
  /**
   * The child's machine, generated from the machine it runs, with its own children; absent when
   * the same agent tool is already drawn above it (agents that call each other): see there.
   */
  readonly graph?: MachineGraph;
}

/** A machine that a spawned actor runs as its child (see {@link GraphState.nests}). */
export interface NestedMachine {
  /** The spawned actor (`src`). */
  readonly actor: string;
  /** The machine it runs (its id). */
  readonly machine: string;
  /** When it does (`agentTool`). */
  readonly when: string;
}

/** A transition, as drawn. `to === from` for a transition that stays (targetless). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** The event type, `always` for eventless transitions. */
  readonly event: string;
  readonly guard?: string;
  /** Named actions run on the transition. */
  readonly actions: readonly string[];
}

/** An actor implementation the machine names in its setup. */
export interface GraphActor {
  /** The name it is registered under (`src`). */
  readonly src: string;
  /** States that invoke it. */
  readonly invokedIn: readonly string[];
  /** True when no state invokes it (it can only be spawned). */
  readonly spawned: boolean;
}

/** The machine's top-level states and transitions, read from its definition. */
export interface MachineGraph {
  readonly id: string;
  readonly initial: string;
  readonly states: readonly GraphState[];
  readonly edges: readonly GraphEdge[];
  /** Actor implementations named in the machine's setup. */
  readonly actors: readonly GraphActor[];
  /** Guards named in the machine's setup. */
  readonly guards: readonly string[];
}

function named(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if ((typeof item === 'object' || typeof item === 'function') && item !== null && 'type' in item) {
    return typeof item.type === 'string' ? item.type : undefined;
  }
  return undefined;
}

function actionNames(actions: readonly unknown[]): string[] {
  return actions.map(named).filter((name): name is string => name !== undefined && !name.startsWith('xstate.'));
}

/**
 * The actors an action spawns: a `spawnChild` action names its `src`; an `enqueueActions`
 * block only says so in its code, so its source is read for `.spawnChild('<src>'` calls.
 */
function spawnedBy(action: unknown): string[] {
  if (typeof action !== 'function' && (typeof action !== 'object' || action === null)) return [];
  const { type, src, collect } = action as { type?: unknown; src?: unknown; collect?: unknown };
  if (type === 'xstate.spawnChild') return typeof src === 'string' ? [src] : [];
  if (type !== 'xstate.enqueueActions' || typeof collect !== 'function') return [];
  return [...collect.toString().matchAll(/\.spawnChild\(\s*['"`]([^'"`]+)['"`]/g)].flatMap((m) => (m[1] ? [m[1]] : []));
}

/** Actors a state declares in `meta.spawns` (for spawns made inside `assign`, which cannot be read). */
function declaredSpawns(node: AnyStateNode): string[] {
  const spawns: unknown = (node.meta as { spawns?: unknown } | undefined)?.spawns;
  return Array.isArray(spawns) ? spawns.filter((src): src is string => typeof src === 'string') : [];
}

/** Machines the state's spawned actors run, declared in `meta.nests`. */
function declaredNests(node: AnyStateNode): NestedMachine[] {
  const nests: unknown = (node.meta as { nests?: unknown } | undefined)?.nests;
  if (!Array.isArray(nests)) return [];
  return nests.filter(
    (nest): nest is NestedMachine =>
      typeof nest === 'object' &&
      nest !== null &&
      typeof nest.actor === 'string' &&
      typeof nest.machine === 'string' &&
      typeof nest.when === 'string',
  );
}

/** Actors spawned on entering the state or by its own transitions, or declared in its `meta.spawns`. */
function stateSpawns(node: AnyStateNode): string[] {
  const actions: unknown[] = [...node.entry];
  for (const transitions of node.transitions.values()) for (const t of transitions) actions.push(...t.actions);
  for (const t of node.always ?? []) actions.push(...t.actions);
  return [...new Set([...declaredSpawns(node), ...actions.flatMap(spawnedBy)])];
}

function edge(from: string, event: string, transition: AnyTransitionDefinition): GraphEdge {
  const guard = named(transition.guard);
  const to = transition.target?.[0]?.key ?? from;
  const actions = actionNames(transition.actions);
  return guard === undefined ? { from, to, event, actions } : { from, to, event, guard, actions };
}

function ownEdges(node: AnyStateNode): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const [event, transitions] of node.transitions) {
    for (const transition of transitions) edges.push(edge(node.key, event, transition));
  }
  for (const transition of node.always ?? []) edges.push(edge(node.key, 'always', transition));
  return edges;
}

function invokedSources(node: AnyStateNode): string[] {
  return node.invoke.map((def) => (typeof def.src === 'string' ? def.src : def.id));
}

function setupNames(record: unknown): string[] {
  return typeof record === 'object' && record !== null ? Object.keys(record) : [];
}

function graphActors(machine: AnyStateMachine, nodes: readonly AnyStateNode[]): GraphActor[] {
  return setupNames(machine.implementations.actors).map((src) => {
    const invokedIn = nodes.filter((node) => invokedSources(node).includes(src)).map((node) => node.key);
    return { src, invokedIn, spawned: invokedIn.length === 0 };
  });
}

/**
 * Reads the graph of a flat machine (its top-level states), including root-level transitions.
 * With `options.registry`, each agent tool in it adds its child's machine under the state whose
 * spawned actor runs it, as deep as `maxAgentDepth` lets agents nest.
 */
export function machineGraph(machine: AnyStateMachine, options: DiagramOptions = {}): MachineGraph {
  return graphOf(machine, options, new Set());
}

/** The graph, `path` holding the agent tools drawn above it (each is drawn once per path). */
function graphOf(machine: AnyStateMachine, options: DiagramOptions, path: ReadonlySet<object>): MachineGraph {
  const root = machine.root;
  const nodes = Object.values(root.states) as AnyStateNode[];
  const actors = graphActors(machine, nodes);
  const states = nodes.map((node) => {
    const nests = declaredNests(node);
    const state = {
      id: node.key,
      final: node.type === 'final',
      invokes: invokedSources(node),
      spawns: stateSpawns(node),
      entry: actionNames(node.entry),
    };
    if (nests.length === 0) return state;
    const children = childGraphs(nests, options, path, graphOf, machine);
    return children.length === 0 ? { ...state, nests } : { ...state, nests, children };
  });
  const edges = nodes.flatMap((node) => {
    const own = ownEdges(node);
    if (node.type === 'final') return own;
    // Root transitions apply in every non-final state that does not handle the event itself.
    const inherited = [...root.transitions].flatMap(([event, transitions]) =>
      node.transitions.has(event) ? [] : transitions.map((t) => edge(node.key, event, t)),
    );
    return [...own, ...inherited];
  });
  const initial = named(root.config.initial) ?? nodes[0]?.key ?? '';
  const guards = setupNames(machine.implementations.guards);
  return { id: root.id, initial, states, edges, actors, guards };
}
