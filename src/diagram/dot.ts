import type { AnyStateMachine } from 'xstate';
import { childId, spawnLabel } from './child-ids.js';
import type { DiagramOptions } from './diagram-options.js';
import { actorLines, edgeLabel } from './edge-label.js';
import { type MachineGraph, machineGraph } from './machine-graph.js';

/** A DOT double-quoted string. */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/**
 * The machine as a Graphviz DOT digraph, generated from its definition. With
 * `options.registry`, each child agent's machine is a cluster, generated from the machine it
 * runs, entered from the state that spawns its call (see {@link DiagramOptions}).
 */
export function toDot(machine: AnyStateMachine, options: DiagramOptions = {}): string {
  const graph = machineGraph(machine, options);
  const nested = graph.states.some((state) => (state.children ?? []).length > 0);
  const lines = [
    `digraph ${quoted(graph.id)} {`,
    '  rankdir=LR;',
    ...(nested ? ['  compound=true;'] : []),
    '  node [shape=box, style=rounded, fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
    ...graphLines(graph, '', '  '),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

/** A graph's lines, its node ids prefixed with `prefix/` (a child's cluster). */
function graphLines(graph: MachineGraph, prefix: string, indent: string): string[] {
  const id = (state: string): string => quoted(prefix === '' ? state : `${prefix}/${state}`);
  const lines = [`${indent}${id('[*]')} [shape=point, width=0.15];`, `${indent}${id('[*]')} -> ${id(graph.initial)};`];
  for (const state of graph.states) {
    const label = [state.id, ...actorLines(state)].join('\n');
    const shape = state.final ? ', peripheries=2' : '';
    lines.push(`${indent}${id(state.id)} [label=${quoted(label)}${shape}];`);
  }
  for (const edge of graph.edges) {
    lines.push(`${indent}${id(edge.from)} -> ${id(edge.to)} [label=${quoted(edgeLabel(edge))}];`);
  }
  for (const state of graph.states) {
    for (const child of state.children ?? []) {
      const inner = childId(prefix, child.name);
      const label = quoted(spawnLabel(child));
      if (child.graph === undefined) {
        lines.push(
          `${indent}${quoted(inner)} [label=${quoted(`${child.name}: drawn above (recursive)`)}, style=dashed];`,
        );
        lines.push(`${indent}${id(state.id)} -> ${quoted(inner)} [style=dashed, label=${label}];`);
        continue;
      }
      const cluster = quoted(`cluster_${inner}`);
      lines.push(`${indent}subgraph ${cluster} {`);
      lines.push(
        `${indent}  label=${quoted(`${child.name}: child agent (depth ${child.depth})`)};`,
        `${indent}  style=dashed;`,
      );
      lines.push(...graphLines(child.graph, inner, `${indent}  `), `${indent}}`);
      const target = quoted(`${inner}/${child.graph.initial}`);
      lines.push(`${indent}${id(state.id)} -> ${target} [lhead=${cluster}, style=dashed, label=${label}];`);
    }
  }
  return lines;
}
