import type { AnyStateMachine } from 'xstate';
import { childAgentOf } from '../subagents/child-agent.js';
import { DIAGRAM_MAX_AGENT_DEPTH, type DiagramOptions } from './diagram-options.js';
import type { ChildMachineGraph, MachineGraph, NestedMachine } from './machine-graph.js';

/** Draws a machine's graph with these options, the agent tools on `path` drawn above it. */
export type DrawGraph = (machine: AnyStateMachine, options: DiagramOptions, path: ReadonlySet<object>) => MachineGraph;

/**
 * The child machines a state's spawned actors run: for a `meta.nests` entry run `when` an
 * `agentTool` is called, one per agent tool in `options.registry`, each drawn from the machine
 * it runs with its own tools, one level deeper, while that depth is within `maxAgentDepth`.
 * An agent tool already on `path` (agents calling each other) is named, not drawn again.
 */
export function childGraphs(
  nests: readonly NestedMachine[],
  options: DiagramOptions,
  path: ReadonlySet<object>,
  draw: DrawGraph,
): ChildMachineGraph[] {
  const { registry } = options;
  const depth = (options.depth ?? 0) + 1;
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
