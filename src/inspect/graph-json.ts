import type { AnyStateMachine } from 'xstate';
import { machineGraph } from './machine-graph.js';

/** The machine graph ({@link machineGraph}) as indented JSON, for tools that draw their own. */
export function toGraphJson(machine: AnyStateMachine): string {
  return `${JSON.stringify(machineGraph(machine), null, 2)}\n`;
}
