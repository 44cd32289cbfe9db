import { getInitialMicrosteps, getMicrosteps } from 'xstate';
import { errorMessage, HarnessError } from '../../core/errors.js';
import type { agentMachine } from '../../machines/agent-machine.js';
import type { AgentContext, AgentMachineEvent, AgentMachineInput } from '../../machines/agent-machine-types.js';
import { type AlphabetOptions, alphabetFor, type LabelledEvent } from './alphabet.js';
import { type ExploredState, stateKey } from './state-key.js';
import { SPAWNED, type SpawnedParams, type TraceStep } from './trace-monitor.js';

type Machine = typeof agentMachine;
/** A snapshot of the agent machine. */
export type Snapshot = ReturnType<Machine['transition']>;
type Microsteps = ReturnType<typeof getMicrosteps<Machine>>;

/** One explored transition: its event, the state it leads to, and the effects it ran. */
export interface Edge {
  /** The event's label. */
  readonly label: string;
  /** Whether the event must change the state. */
  readonly role: LabelledEvent['role'];
  /** The event. */
  readonly event: AgentMachineEvent;
  /** Key of the target state. */
  readonly to: string;
  /**
   * The state the transition produced. Its key is `to`, but its context may differ from the
   * graph node's in fields the key leaves out (the last turn's results, between turns).
   */
  readonly target: ExploredState;
  /** The effects the transition ran, in order. */
  readonly trace: readonly TraceStep[];
}

/** A stable state of the explored graph. */
export interface GraphNode {
  /** The state's name and context. */
  readonly state: ExploredState;
  /** True for `done` and `error` (never expanded: a stopped actor takes no events). */
  readonly final: boolean;
  /** Events on the shortest path from the start. */
  readonly depth: number;
  /** The previous state and event on a shortest path (none for the start). */
  readonly parent: { readonly key: string; readonly label: string } | undefined;
  /** False when the state lies at the step bound and its events were not explored. */
  readonly expanded: boolean;
  /** Its transitions, one per event of the alphabet (none when not expanded). */
  readonly edges: readonly Edge[];
}

/** An event whose transition threw (as the interpreter would, failing the run's actor). */
export interface ThrownTransition {
  /** Key of the state the event was sent in. */
  readonly from: string;
  /** The event's label. */
  readonly label: string;
  /** What it threw. */
  readonly message: string;
}

/** The explored state graph, and the start: its key and the effects the machine ran to get there. */
export interface StateGraph {
  readonly nodes: ReadonlyMap<string, GraphNode>;
  readonly start: string;
  readonly startTrace: readonly TraceStep[];
  /** Transitions that threw: they lead nowhere and are reported. */
  readonly thrown: readonly ThrownTransition[];
}

/** How far {@link buildStateGraph} explores. */
export interface ExplorationBounds {
  /** States at this many events from the start are not expanded. */
  readonly maxSteps: number;
  /** Throw once this many states are found. */
  readonly maxStates: number;
}

function exploredState(snapshot: Snapshot): ExploredState {
  return { value: String(snapshot.value), context: snapshot.context };
}

/** The key of a snapshot in the graph. */
export function snapshotKey(snapshot: Snapshot): string {
  return stateKey(exploredState(snapshot));
}

function spawnedParams(id: string, child: unknown): SpawnedParams {
  const input = (child as { getSnapshot?: () => { input?: { index?: unknown; answer?: unknown } } }).getSnapshot?.()
    ?.input;
  const params: { -readonly [K in keyof SpawnedParams]: SpawnedParams[K] } = { id };
  if (typeof input?.index === 'number') params.index = input.index;
  if (input?.answer !== undefined) params.answered = true;
  return params;
}

/** Pseudo-steps for the children a microstep spawned (a spawn inside `assign` leaves no action). */
function spawnSteps(snapshot: Snapshot, before: Readonly<Record<string, unknown>>): TraceStep[] {
  return Object.entries(snapshot.children)
    .filter(([id]) => !(id in before))
    .map(([id, child]) => ({ action: SPAWNED, params: spawnedParams(id, child), context: snapshot.context }));
}

/**
 * The effects of a transition, in order; each sees the context as it was when it ran (`info`).
 * Children spawned in a microstep follow its effects as {@link SPAWNED} steps; `children` are
 * those of the state the transition started from.
 */
export function traceOf(microsteps: Microsteps, children: Readonly<Record<string, unknown>> = {}): TraceStep[] {
  let before = children;
  return microsteps.flatMap(([snapshot, actions]) => {
    const effects: TraceStep[] = actions.map((action) => ({
      action: action.type,
      params: action.params,
      context: (action.info?.context as AgentContext | undefined) ?? snapshot.context,
    }));
    const spawned = spawnSteps(snapshot, before);
    before = snapshot.children;
    return [...effects, ...spawned];
  });
}

/**
 * The transitions of an active state, one per event of its alphabet. (Final states are not
 * expanded: the interpreter drops events sent to a stopped actor, while the pure `getMicrosteps`
 * would still take the root-level ABORT transition.)
 */
function edgesOf(
  machine: Machine,
  snapshot: Snapshot,
  alphabet: AlphabetOptions,
  thrown: (label: string, error: unknown) => void,
) {
  const events = alphabetFor(alphabet, String(snapshot.value), snapshot.context);
  return events.flatMap((labelled) => {
    const event = labelled.event as AgentMachineEvent;
    let microsteps: Microsteps;
    try {
      microsteps = getMicrosteps(machine, snapshot, event);
    } catch (error) {
      thrown(labelled.label, error);
      return [];
    }
    const next = microsteps.at(-1)?.[0] ?? snapshot;
    const trace = traceOf(microsteps, snapshot.children);
    const edge = {
      label: labelled.label,
      role: labelled.role,
      event,
      to: snapshotKey(next),
      target: exploredState(next),
      trace,
    };
    return [{ edge, next }];
  });
}

/**
 * Explores the reachable stable states breadth first, up to `maxSteps` events from the start.
 * Each transition is computed once with XState's pure `getMicrosteps`, which also yields the
 * effects it ran. States at the bound are kept but not expanded, so a machine that never ends
 * is explored in bounded time and reported, instead of searched forever.
 */
export function buildStateGraph(
  machine: Machine,
  input: AgentMachineInput,
  alphabet: AlphabetOptions,
  bounds: ExplorationBounds,
): StateGraph {
  const initial = getInitialMicrosteps(machine, input);
  const first = initial.at(-1)?.[0];
  if (first === undefined) throw new HarnessError('invalid_argument', 'the machine has no initial state');
  const start = snapshotKey(first);
  const nodes = new Map<string, GraphNode>();
  const snapshots = new Map<string, Snapshot>([[start, first]]);
  const add = (key: string, snapshot: Snapshot, depth: number, parent: GraphNode['parent']) => {
    const expanded = snapshot.status === 'active' && depth < bounds.maxSteps;
    nodes.set(key, {
      state: exploredState(snapshot),
      final: snapshot.status === 'done',
      depth,
      parent,
      expanded,
      edges: [],
    });
    if (nodes.size > bounds.maxStates) {
      throw new HarnessError(
        'invalid_argument',
        `modelCheckAgentMachine found more than ${bounds.maxStates} states within ${bounds.maxSteps} steps; shrink the alphabet (maxToolCalls, usages, elapsedSteps) or raise limit`,
      );
    }
  };
  add(start, first, 0, undefined);
  const thrown: ThrownTransition[] = [];
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const key = queue[head] as string;
    const node = nodes.get(key) as GraphNode;
    const snapshot = snapshots.get(key) as Snapshot;
    snapshots.delete(key);
    const computed = edgesOf(machine, snapshot, alphabet, (label, error) => {
      thrown.push({ from: key, label, message: errorMessage(error) });
    });
    for (const { edge, next } of computed) {
      if (nodes.has(edge.to)) continue;
      add(edge.to, next, node.depth + 1, { key, label: edge.label });
      const added = nodes.get(edge.to) as GraphNode;
      if (added.expanded) {
        snapshots.set(edge.to, next);
        queue.push(edge.to);
      }
    }
    nodes.set(key, { ...node, edges: computed.map(({ edge }) => edge) });
  }
  return { nodes, start, startTrace: traceOf(initial), thrown };
}

/** The shortest path of event labels from the start to a state. */
export function pathTo(graph: StateGraph, key: string): string[] {
  const labels: string[] = [];
  for (let node = graph.nodes.get(key); node?.parent !== undefined; node = graph.nodes.get(node.parent.key)) {
    labels.push(node.parent.label);
  }
  return labels.reverse();
}
