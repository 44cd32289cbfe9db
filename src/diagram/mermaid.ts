import type { AnyStateMachine } from 'xstate';
import { childId, spawnLabel } from './child-ids.js';
import type { DiagramOptions } from './diagram-options.js';
import { actorLines, edgeLabel } from './edge-label.js';
import { type MachineGraph, machineGraph } from './machine-graph.js';

export { eventLabel } from './edge-label.js';

/**
 * The machine as a Mermaid `stateDiagram-v2`, generated from its definition. With
 * `options.registry`, each child agent's machine is a composite state, generated from the
 * machine it runs, entered from the state that spawns its call (see {@link DiagramOptions}).
 */
export function toMermaid(machine: AnyStateMachine, options: DiagramOptions = {}): string {
  return `${['stateDiagram-v2', ...graphLines(machineGraph(machine, options), '', '  ')].join('\n')}\n`;
}

/** A graph's lines, its state ids prefixed with `prefix` (a child's composite state id). */
function graphLines(graph: MachineGraph, prefix: string, indent: string): string[] {
  const id = (state: string): string => (prefix === '' ? state : `${prefix}__${state}`);
  const lines = [`${indent}[*] --> ${id(graph.initial)}`];
  for (const state of graph.states) {
    const actors = actorLines(state);
    if (actors.length > 0) lines.push(`${indent}${id(state.id)} : ${[state.id, ...actors].join('\\n')}`);
    else if (prefix !== '') lines.push(`${indent}state "${state.id}" as ${id(state.id)}`);
  }
  for (const edge of graph.edges) lines.push(`${indent}${id(edge.from)} --> ${id(edge.to)} : ${edgeLabel(edge)}`);
  for (const state of graph.states) if (state.final) lines.push(`${indent}${id(state.id)} --> [*]`);
  for (const state of graph.states) {
    for (const child of state.children ?? []) {
      const inner = childId(prefix, child.name);
      if (child.graph === undefined) lines.push(`${indent}state "${child.name}: drawn above (recursive)" as ${inner}`);
      else lines.push(`${indent}state ${inner} {`, ...graphLines(child.graph, inner, `${indent}  `), `${indent}}`);
      lines.push(`${indent}${id(state.id)} --> ${inner} : ${spawnLabel(child)}`);
    }
  }
  return lines;
}
