/**
 * The face of `diagram/` (row 7): machine diagrams (Mermaid, DOT, JSON) with the child machines
 * of sub-agents.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export { graphFromDefinition } from './definition-graph.js';
export type { DiagramOptions, RanAgent } from './diagram-options.js';
export { toDot } from './dot.js';
export { eventLabel } from './edge-label.js';
export { toGraphJson } from './graph-json.js';
export type {
  ChildMachineGraph,
  GraphActor,
  GraphEdge,
  GraphState,
  MachineGraph,
  NestedMachine,
} from './machine-graph.js';
export { machineGraph } from './machine-graph.js';
export { toMermaid } from './mermaid.js';
export { ranAgents } from './ran-agents.js';
