import type { ToolRegistry } from '../tools/registry.js';

/** Default of {@link DiagramOptions.maxAgentDepth} (`Config`'s default `maxAgentDepth`). */
export const DIAGRAM_MAX_AGENT_DEPTH = 3;

/** An agent tool a recorded run started, with the agent tools that child started in turn (`ranAgents`). */
export interface RanAgent {
  /** The agent tool's name. */
  readonly name: string;
  readonly children: readonly RanAgent[];
}

/** What a diagram of the agent machine draws besides the machine itself. */
export interface DiagramOptions {
  /**
   * The tools of the agent whose machine is drawn: each agent tool in it (`agentTool`) draws
   * its child agent's machine, generated from that machine, under the state whose spawned actor
   * runs it (`executingTools`), and the child's agent tools in turn.
   */
  readonly registry?: ToolRegistry;
  /** How deeply the drawn agent is nested (0, the default, for a top-level agent). */
  readonly depth?: number;
  /**
   * The deepest nesting the drawn agent allows (its `Config.maxAgentDepth`, 3 by default): a
   * child deeper than that would not run, so it is not drawn. Each child is bounded by its own.
   */
  readonly maxAgentDepth?: number;
  /**
   * Without a registry (a stored session): the agent tools the recorded run started, each drawn
   * as the machine every agent runs (the drawn one), with the agents it started in turn.
   */
  readonly ran?: readonly RanAgent[];
}
