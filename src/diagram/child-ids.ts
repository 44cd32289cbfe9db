import type { ChildMachineGraph } from './machine-graph.js';

/** The diagram id of a child agent's machine drawn inside the graph with id prefix `prefix`. */
export function childId(prefix: string, name: string): string {
  const own = `agent_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return prefix === '' ? own : `${prefix}__${own}`;
}

/** The label of the edge from a state to the child machine its spawned actor runs. */
export function spawnLabel(child: ChildMachineGraph): string {
  return `spawn ${child.actor}: ${child.name} (agentTool, depth ${child.depth})`;
}
