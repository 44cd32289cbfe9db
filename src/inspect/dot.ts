import type { AnyStateMachine } from 'xstate';
import { actorLines, edgeLabel } from './edge-label.js';
import { machineGraph } from './machine-graph.js';

/** A DOT double-quoted string. */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** The machine as a Graphviz DOT digraph, generated from its definition. */
export function toDot(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const lines = [
    `digraph ${quoted(graph.id)} {`,
    '  rankdir=LR;',
    '  node [shape=box, style=rounded, fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
    '  "[*]" [shape=point, width=0.15];',
    `  "[*]" -> ${quoted(graph.initial)};`,
  ];
  for (const state of graph.states) {
    const label = [state.id, ...actorLines(state)].join('\n');
    const shape = state.final ? ', peripheries=2' : '';
    lines.push(`  ${quoted(state.id)} [label=${quoted(label)}${shape}];`);
  }
  for (const edge of graph.edges) {
    lines.push(`  ${quoted(edge.from)} -> ${quoted(edge.to)} [label=${quoted(edgeLabel(edge))}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
