// agent-harness/diagram: the machine's diagram, generated from its definition.
export type {
  ChildMachineGraph,
  DiagramOptions,
  GraphActor,
  GraphEdge,
  GraphState,
  MachineGraph,
  NestedMachine,
  RanAgent,
} from './diagram/index.js';
export { eventLabel, graphFromDefinition, machineGraph, toDot, toGraphJson, toMermaid } from './diagram/index.js';
