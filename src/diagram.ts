// agent-harness/diagram: the machine's diagram, generated from its definition.
export { graphFromDefinition } from './inspect/definition-graph.js';
export { toDot } from './inspect/dot.js';
export { toGraphJson } from './inspect/graph-json.js';
export type { GraphActor, GraphEdge, GraphState, MachineGraph } from './inspect/machine-graph.js';
export { machineGraph } from './inspect/machine-graph.js';
export { eventLabel, toMermaid } from './inspect/mermaid.js';
