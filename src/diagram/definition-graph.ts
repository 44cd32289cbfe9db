import type { GraphEdge, GraphState, MachineGraph } from './machine-graph.js';

/** Built-in action creators, as a serialised definition names them (their function names). */
const BUILT_IN_ACTIONS = new Set([
  'assign',
  'enqueueActions',
  'raise',
  'sendTo',
  'spawnChild',
  'stopChild',
  'log',
  'emit',
  'cancel',
  'sendParent',
  'forwardTo',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function nameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isObject(value) && typeof value.type === 'string' ? value.type : undefined;
}

/** `'.error'`, `'#agent.error'` and `'error'` all name the top-level state `error`. */
function targetKey(target: unknown): string | undefined {
  const first = list(target)[0];
  if (typeof first !== 'string') return undefined;
  const path = first.startsWith('#') ? first.slice(first.indexOf('.') + 1) : first.replace(/^\./, '');
  return path.split('.')[0] || undefined;
}

function edgesFor(from: string, event: string, config: unknown): GraphEdge[] {
  return list(config).map((transition) => {
    const t = isObject(transition) ? transition : { target: transition };
    const guard = nameOf(t.guard);
    const actions = list(t.actions)
      .map(nameOf)
      .filter((name): name is string => name !== undefined && !BUILT_IN_ACTIONS.has(name));
    const to = targetKey(t.target) ?? from;
    return guard === undefined ? { from, to, event, actions } : { from, to, event, guard, actions };
  });
}

function stateEdges(key: string, node: Json): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const invoke of list(node.invoke)) {
    if (!isObject(invoke)) continue;
    const id = typeof invoke.id === 'string' ? invoke.id : (nameOf(invoke.src) ?? 'actor');
    edges.push(...edgesFor(key, `xstate.done.actor.${id}`, invoke.onDone));
    edges.push(...edgesFor(key, `xstate.error.actor.${id}`, invoke.onError));
  }
  if (isObject(node.on))
    for (const [event, config] of Object.entries(node.on)) edges.push(...edgesFor(key, event, config));
  edges.push(...edgesFor(key, 'always', node.always));
  return edges;
}

/**
 * Reads the top-level states and transitions of a machine from its serialised config (what
 * `@statelyai/inspect` sends as an actor's `definition`). Functions arrive as `{type: name}`, so
 * guards keep their names; which actors a state spawns is known only when the state declares
 * them in `meta.spawns`. Undefined when the value has no states.
 */
export function graphFromDefinition(definition: unknown): MachineGraph | undefined {
  if (!isObject(definition) || !isObject(definition.states)) return undefined;
  const entries = Object.entries(definition.states).filter((entry): entry is [string, Json] => isObject(entry[1]));
  const states: GraphState[] = entries.map(([id, node]) => ({
    id,
    final: node.type === 'final',
    invokes: list(node.invoke).flatMap((invoke) =>
      isObject(invoke) && nameOf(invoke.src) ? [nameOf(invoke.src) ?? ''] : [],
    ),
    spawns: isObject(node.meta) ? list(node.meta.spawns).filter((src): src is string => typeof src === 'string') : [],
    entry: list(node.entry)
      .map(nameOf)
      .filter((name): name is string => name !== undefined && !BUILT_IN_ACTIONS.has(name)),
  }));
  const rootOn = isObject(definition.on) ? Object.entries(definition.on) : [];
  const edges = entries.flatMap(([key, node]) => {
    const own = stateEdges(key, node);
    if (node.type === 'final') return own;
    const handled = new Set(own.map((edge) => edge.event));
    return [...own, ...rootOn.flatMap(([event, config]) => (handled.has(event) ? [] : edgesFor(key, event, config)))];
  });
  const initial = typeof definition.initial === 'string' ? definition.initial : (entries[0]?.[0] ?? '');
  const id = typeof definition.id === 'string' ? definition.id : 'machine';
  return { id, initial, states, edges, actors: [], guards: [] };
}
