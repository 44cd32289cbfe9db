import type { GraphEdge, GraphState } from './machine-graph.js';

/** A short label for an event type (`xstate.done.actor.model` → `done(model)`). */
export function eventLabel(event: string): string {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return match ? `${match[1]}(${match[2]})` : event;
}

/** An edge's label: the event, then the guard in brackets (`done(model) [turnAskedForTools]`). */
export function edgeLabel(edge: GraphEdge): string {
  const guard = edge.guard ? ` [${edge.guard}]` : '';
  return `${eventLabel(edge.event)}${guard}`;
}

/**
 * The actor lines under a state's name (`invoke callModel`, `spawn runTool`, and the machines
 * spawned actors run: `runTool runs child agent (agentTool)`).
 */
export function actorLines(state: GraphState): string[] {
  const lines: string[] = [];
  if (state.invokes.length > 0) lines.push(`invoke ${state.invokes.join(', ')}`);
  if (state.spawns.length > 0) lines.push(`spawn ${state.spawns.join(', ')}`);
  for (const nest of state.nests ?? []) lines.push(`${nest.actor} runs child ${nest.machine} (${nest.when})`);
  return lines;
}
