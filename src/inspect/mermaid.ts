import type { AnyStateMachine } from 'xstate';
import { type GraphEdge, machineGraph } from './machine-graph.js';

/** A short label for an event type (`xstate.done.actor.model` → `done(model)`). */
export function eventLabel(event: string): string {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return match ? `${match[1]}(${match[2]})` : event;
}

function label(edge: GraphEdge): string {
  const guard = edge.guard ? ` [${edge.guard}]` : '';
  return `${eventLabel(edge.event)}${guard}`;
}

/** The machine as a Mermaid `stateDiagram-v2`, generated from its definition. */
export function toMermaid(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const lines = ['stateDiagram-v2', `  [*] --> ${graph.initial}`];
  for (const state of graph.states) {
    if (state.invokes.length > 0) lines.push(`  ${state.id} : ${state.id}\\ninvoke ${state.invokes.join(', ')}`);
  }
  for (const edge of graph.edges) lines.push(`  ${edge.from} --> ${edge.to} : ${label(edge)}`);
  for (const state of graph.states) if (state.final) lines.push(`  ${state.id} --> [*]`);
  return `${lines.join('\n')}\n`;
}
