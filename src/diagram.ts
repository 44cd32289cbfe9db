// agent-harness/diagram: the machine's diagram, generated from its definition.
export { graphFromDefinition } from './inspect/definition-graph.js';
export type { DiagramOptions, RanAgent } from './inspect/diagram-options.js';
export { toDot } from './inspect/dot.js';
export { toGraphJson } from './inspect/graph-json.js';
export type {
  ChildMachineGraph,
  GraphActor,
  GraphEdge,
  GraphState,
  MachineGraph,
  NestedMachine,
} from './inspect/machine-graph.js';
export { machineGraph } from './inspect/machine-graph.js';
export { eventLabel, toMermaid } from './inspect/mermaid.js';
