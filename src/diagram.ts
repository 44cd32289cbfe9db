// agent-harness/diagram: the machine's diagram, generated from its definition.
export { graphFromDefinition } from './diagram/definition-graph.js';
export type { DiagramOptions, RanAgent } from './diagram/diagram-options.js';
export { toDot } from './diagram/dot.js';
export { toGraphJson } from './diagram/graph-json.js';
export type {
  ChildMachineGraph,
  GraphActor,
  GraphEdge,
  GraphState,
  MachineGraph,
  NestedMachine,
} from './diagram/machine-graph.js';
export { machineGraph } from './diagram/machine-graph.js';
export { eventLabel, toMermaid } from './diagram/mermaid.js';
