import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** A state of the machine, as drawn. */
export interface GraphState {
  readonly id: string;
  readonly final: boolean;
  /** Actors invoked while in the state (their `src`). */
  readonly invokes: readonly string[];
  /** Named entry actions. */
  readonly entry: readonly string[];
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

/** The machine's top-level states and transitions, read from its definition. */
export interface MachineGraph {
  readonly id: string;
  readonly initial: string;
  readonly states: readonly GraphState[];
  readonly edges: readonly GraphEdge[];
}

function named(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null && 'type' in item && typeof item.type === 'string') return item.type;
  return undefined;
}

function actionNames(actions: readonly unknown[]): string[] {
  return actions.map(named).filter((name): name is string => name !== undefined && !name.startsWith('xstate.'));
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

/** Reads the graph of a flat machine (its top-level states), including root-level transitions. */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const root = machine.root;
  const nodes = Object.values(root.states) as AnyStateNode[];
  const states = nodes.map((node) => ({
    id: node.key,
    final: node.type === 'final',
    invokes: node.invoke.map((def) => (typeof def.src === 'string' ? def.src : def.id)),
    entry: actionNames(node.entry),
  }));
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
  return { id: root.id, initial, states, edges };
}
