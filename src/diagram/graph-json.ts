import type { AnyStateMachine } from 'xstate';
import type { DiagramOptions } from './diagram-options.js';
import { machineGraph } from './machine-graph.js';

/**
 * The machine graph ({@link machineGraph}) as indented JSON, for tools that draw their own;
 * with `options.registry`, child agents' machines are under their states' `children`.
 */
export function toGraphJson(machine: AnyStateMachine, options: DiagramOptions = {}): string {
  return `${JSON.stringify(machineGraph(machine, options), null, 2)}\n`;
}
