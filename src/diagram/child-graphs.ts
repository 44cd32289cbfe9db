import type { AnyStateMachine } from 'xstate';
import { childAgentOf } from '../subagents/child-agent.js';
import { DIAGRAM_MAX_AGENT_DEPTH, type DiagramOptions, type RanAgent } from './diagram-options.js';
import type { ChildMachineGraph, MachineGraph, NestedMachine } from './machine-graph.js';

/** Draws a machine's graph with these options, the agent tools on `path` drawn above it. */
export type DrawGraph = (machine: AnyStateMachine, options: DiagramOptions, path: ReadonlySet<object>) => MachineGraph;

/**
 * The child machines a state's spawned actors run: for a `meta.nests` entry run `when` an
 * `agentTool` is called, one per agent tool in `options.registry`, each drawn from the machine
 * it runs with its own tools, one level deeper, while that depth is within `maxAgentDepth`.
 * An agent tool already on `path` (agents calling each other) is named, not drawn again.
 * Without a registry, the agents `options.ran` names (a stored run's) are drawn as `machine`,
 * the machine every agent runs.
 */
export function childGraphs(
  nests: readonly NestedMachine[],
  options: DiagramOptions,
  path: ReadonlySet<object>,
  draw: DrawGraph,
  machine: AnyStateMachine,
): ChildMachineGraph[] {
  const { registry } = options;
  const depth = (options.depth ?? 0) + 1;
  if (registry === undefined && options.ran !== undefined) return ranGraphs(nests, options.ran, depth, draw, machine);
  if (registry === undefined || depth > (options.maxAgentDepth ?? DIAGRAM_MAX_AGENT_DEPTH)) return [];
  const graphs: ChildMachineGraph[] = [];
  for (const nest of nests) {
    if (nest.when !== 'agentTool') continue;
    for (const name of registry.names()) {
      const tool = registry.get(name);
      const child = childAgentOf(tool);
      if (tool === undefined || child === undefined) continue;
      if (path.has(tool)) {
        graphs.push({ actor: nest.actor, name, depth });
        continue;
      }
      const inner = {
        depth,
        maxAgentDepth: child.maxAgentDepth,
        ...(child.registry ? { registry: child.registry } : {}),
      };
      graphs.push({ actor: nest.actor, name, depth, graph: draw(child.machine, inner, new Set([...path, tool])) });
    }
  }
  return graphs;
}

/** The child machines of a recorded run's agents: one per agent tool it started, by name. */
function ranGraphs(
  nests: readonly NestedMachine[],
  ran: readonly RanAgent[],
  depth: number,
  draw: DrawGraph,
  machine: AnyStateMachine,
): ChildMachineGraph[] {
  const graphs: ChildMachineGraph[] = [];
  for (const nest of nests) {
    if (nest.when !== 'agentTool') continue;
    for (const agent of ran) {
      const graph = draw(machine, { depth, ran: agent.children }, new Set());
      graphs.push({ actor: nest.actor, name: agent.name, depth, graph });
    }
  }
  return graphs;
}
