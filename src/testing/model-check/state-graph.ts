import { type ActorLogic, getMicrosteps } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { agentMachine } from '../../machines/agent-machine.js';
import type { AgentContext, AgentMachineEvent, AgentMachineInput } from '../../machines/agent-machine-types.js';
import { type AlphabetOptions, alphabetFor, type LabelledEvent } from './alphabet.js';
import { type ExploredState, stateKey } from './state-key.js';
import { ABORT_ACCEPTED, SPAWNED, type TraceStep } from './trace-monitor.js';

type Machine = typeof agentMachine;
/** A snapshot of the agent machine. */
export type Snapshot = ReturnType<Machine['transition']>;
type Microsteps = ReturnType<typeof getMicrosteps<Machine>>;

/** One explored transition: its event's label and role, its target, and the effects it ran. */
export interface Edge {
  /** The event's label. */
  readonly label: string;
  /** Whether the event must change the state. */
  readonly role: LabelledEvent['role'];
  /** Key of the target state. */
  readonly to: string;
  /** The effects the transition ran, in order. */
  readonly trace: readonly TraceStep[];
}

/** The explored state graph: each stable state's key, whether it is final, and its edges. */
export type StateGraph = ReadonlyMap<string, { readonly final: boolean; readonly edges: readonly Edge[] }>;

/** The key of a snapshot in the graph. */
export function snapshotKey(snapshot: Snapshot): string {
  const state: ExploredState = { value: String(snapshot.value), context: snapshot.context };
  return stateKey(state);
}

/** Pseudo-steps for the children a microstep spawned (spawns inside `assign` leave no action). */
function spawnSteps(snapshot: Snapshot, before: Readonly<Record<string, unknown>>): TraceStep[] {
  return Object.keys(snapshot.children)
    .filter((id) => !(id in before))
    .map((id) => ({ action: SPAWNED, params: { id }, context: snapshot.context }));
}

/**
 * The effects of a transition, in order; each sees the context as it was when it ran (`info`).
 * Children spawned in a microstep follow its effects as {@link SPAWNED} steps; `children` are
 * those of the state the transition started from.
 */
export function traceOf(
  microsteps: Microsteps,
  event?: AgentMachineEvent,
  role?: LabelledEvent['role'],
  children: Readonly<Record<string, unknown>> = {},
): TraceStep[] {
  let before = children;
  const steps = microsteps.flatMap(([snapshot, actions]) => {
    const effects: TraceStep[] = actions.map((action) => ({
      action: action.type,
      params: action.params,
      context: (action.info?.context as AgentContext | undefined) ?? snapshot.context,
    }));
    const spawned = spawnSteps(snapshot, before);
    before = snapshot.children;
    return [...effects, ...spawned];
  });
  const first = microsteps[0]?.[0];
  if (event?.type !== 'ABORT' || role !== 'matters' || first === undefined) return steps;
  return [{ action: ABORT_ACCEPTED, params: event, context: first.context }, ...steps];
}

/**
 * Enumerates the reachable states with `xstate/graph`'s `getAdjacencyMap`. The machine is wrapped
 * so that each transition is computed once, as microsteps, keeping the effects it ran (the
 * adjacency map itself keeps only the target snapshots).
 */
export function buildStateGraph(
  machine: Machine,
  input: AgentMachineInput,
  alphabet: AlphabetOptions,
  limit: number,
): StateGraph {
  const labels = new Map<string, LabelledEvent>();
  const traces = new Map<string, TraceStep[]>();
  const edgeKey = (snapshot: Snapshot, event: AgentMachineEvent) => `${snapshotKey(snapshot)}|${JSON.stringify(event)}`;
  const logic: ActorLogic<Snapshot, AgentMachineEvent, AgentMachineInput> = {
    config: machine.config,
    getInitialSnapshot: (scope, input) => machine.getInitialSnapshot(scope, input),
    getPersistedSnapshot: (snapshot) => snapshot,
    transition: (snapshot, event) => {
      // Like the interpreter, which drops events sent to an actor that reached a final state
      // (the pure `getMicrosteps` would still take the root-level ABORT transition).
      if (snapshot.status !== 'active') return snapshot;
      const microsteps = getMicrosteps(machine, snapshot, event);
      const key = edgeKey(snapshot, event);
      traces.set(key, traceOf(microsteps, event, labels.get(key)?.role, snapshot.children));
      return microsteps.at(-1)?.[0] ?? snapshot;
    },
  };
  const adjacency = getAdjacencyMap(logic, {
    input,
    events: (snapshot) =>
      alphabetFor(alphabet, String(snapshot.value), snapshot.context).map((labelled) => {
        labels.set(edgeKey(snapshot, labelled.event as AgentMachineEvent), labelled);
        return labelled.event as AgentMachineEvent;
      }),
    serializeState: snapshotKey,
    serializeEvent: (event) => JSON.stringify(event),
    limit,
  });
  const graph = new Map<string, { final: boolean; edges: Edge[] }>();
  for (const [key, { state, transitions }] of Object.entries(adjacency)) {
    const steps = Object.values(transitions) as { event: AgentMachineEvent; state: Snapshot }[];
    const edges = steps.map(({ event, state: next }): Edge => {
      const labelled = labels.get(`${key}|${JSON.stringify(event)}`);
      return {
        label: labelled?.label ?? event.type,
        role: labelled?.role ?? 'matters',
        to: snapshotKey(next),
        trace: traces.get(`${key}|${JSON.stringify(event)}`) ?? [],
      };
    });
    graph.set(key, { final: state.status === 'done', edges });
  }
  return graph;
}
