import type { PermissionPolicy } from '../config/permission-policy.js';
import type { TokenUsage } from '../core/usage.js';

/**
 * What a tool call knows of the agent run that makes it (`ToolInvocation.run`): absent when a
 * tool is invoked outside a run (`registry.invoke`). A run of an `Agent` hands its tools an
 * `AgentRunContext` (the runtime's extension of this, with what a sub-agent needs), which
 * `agentRunOf(run)` finds.
 */
export interface ToolRunContext {
  /** The calling session's id (undefined for a session without one). */
  readonly sessionId: string | undefined;
  /** How deeply the calling agent is nested (0 for a top-level agent). */
  readonly depth: number;
  /**
   * For a tool that runs an agent (`runsAgent`): the session id of this call's child, made from
   * the calling session's id, the turn and the call id, and journaled with the call's start.
   */
  readonly childSessionId?: string;
  /** The deepest nesting the calling agent allows for the agents it starts (`Config.maxAgentDepth`). */
  readonly maxAgentDepth: number;
  /** The calling agent's tool policy: a sub-agent's policy is narrowed by it, never wider. */
  readonly permissions?: PermissionPolicy;
  /** Counts usage spent for this call into the calling run (journaled with the call's result). */
  addUsage(usage: TokenUsage): void;
  /** Hands the conversation to agent `to` with these instructions, from the next request on. */
  handOff(to: string, instructions: string): void;
}
