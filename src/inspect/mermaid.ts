import type { AnyStateMachine } from 'xstate';
import { actorLines, edgeLabel } from './edge-label.js';
import { machineGraph } from './machine-graph.js';

export { eventLabel } from './edge-label.js';

/** The machine as a Mermaid `stateDiagram-v2`, generated from its definition. */
export function toMermaid(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const lines = ['stateDiagram-v2', `  [*] --> ${graph.initial}`];
  for (const state of graph.states) {
    const actors = actorLines(state);
    if (actors.length > 0) lines.push(`  ${state.id} : ${[state.id, ...actors].join('\\n')}`);
  }
  for (const edge of graph.edges) lines.push(`  ${edge.from} --> ${edge.to} : ${edgeLabel(edge)}`);
  for (const state of graph.states) if (state.final) lines.push(`  ${state.id} --> [*]`);
  return `${lines.join('\n')}\n`;
}
