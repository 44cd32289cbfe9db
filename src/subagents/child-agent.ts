import type { AnyStateMachine } from 'xstate';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolLike } from '../tools/tool.js';
import { toolTag } from '../tools/tool-tag.js';

/** What an agent tool (`agentTool`) runs: the child agent's name, machine, tools and nesting bound. */
export interface ChildAgent {
  /** The agent tool's name (the child agent's name). */
  readonly name: string;
  /** The machine the child agent runs (its `Agent.machine`). */
  readonly machine: AnyStateMachine;
  /** The child's tools (the agent tools among them run grandchildren). */
  readonly registry: ToolRegistry | undefined;
  /** The child's `Config.maxAgentDepth`: how deep the agents it starts may nest. */
  readonly maxAgentDepth: number;
}

/** Where an agent tool keeps the child agent it runs. */
const CHILD = toolTag<ChildAgent>('agent-harness.childAgent');

/** Marks `tool` as running `child` (what a diagram draws under the state that spawns the call). */
export function markChildAgent<T extends object>(tool: T, child: ChildAgent): T {
  return CHILD.mark(tool, child);
}

/** The child agent an agent tool runs; undefined for any other tool. */
export function childAgentOf(tool: ToolLike | undefined): ChildAgent | undefined {
  return CHILD.of(tool);
}
