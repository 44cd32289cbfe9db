import type { Agent } from '../agent/agent.js';
import type { TreeSpend } from '../agent/tree-spend.js';
import type { PermissionPolicy } from '../approval/permission-policy.js';
import type { AgentEvent } from '../core/agent-event.js';
import type { TokenUsage } from '../core/usage.js';
import type { ChildSessions } from '../session/child-sessions.js';
import type { JournalStore } from '../stores/journal-store.js';

/** A child agent that a tool call started, announced to the agent whose call it is. */
export interface ChildAgentRun {
  /** The call that runs the child. */
  readonly callId: string;
  /** The tool's name (the child agent's name). */
  readonly name: string;
  /** The child's session id (in the parent's store, when it has one). */
  readonly sessionId: string;
  /** How deeply the child is nested: 1 under a top-level agent. */
  readonly depth: number;
  /** The child agent, before its run starts (subscribe to its stream here). */
  readonly agent: Agent;
}

/**
 * What a tool call knows of the agent run that makes it (`ToolInvocation.run`): absent when a
 * tool is invoked outside a run (`registry.invoke`). A sub-agent tool uses it to find its
 * child's session, to count the child's usage into the run, and to announce the child.
 */
export interface ToolRunContext {
  /** The calling session's id (undefined for a session without one). */
  readonly sessionId: string | undefined;
  /** The calling session's store, if any: a child session is kept beside it. */
  readonly store: JournalStore | undefined;
  /** Without a store, where the calling session keeps its child sessions in memory (`Session.children`). */
  readonly children: ChildSessions;
  /** How deeply the calling agent is nested (0 for a top-level agent). */
  readonly depth: number;
  /**
   * For a tool that runs an agent (`runsAgent`): the session id of this call's child, made from
   * the calling session's id, the turn and the call id, and journaled with the call's start.
   */
  readonly childSessionId?: string;
  /** The deepest nesting the calling agent allows for the agents it starts (`Config.maxAgentDepth`). */
  readonly maxAgentDepth: number;
  /**
   * The calling run's live spend, with its sub-agents' (undefined outside a run of an `Agent`):
   * a sub-agent started by this call runs under it (`AgentOptions.parentSpend`).
   */
  readonly spend?: TreeSpend;
  /** The calling agent's tool policy: a sub-agent's policy is narrowed by it, never wider. */
  readonly permissions?: PermissionPolicy;
  /**
   * Hands a sub-agent's approval request to the calling agent's approver: it is emitted on the
   * calling run's stream with the agent tool's name before its `path`, and the calling agent's
   * `approve(callId)` / `deny(callId)` decide it on `child`.
   */
  relayApproval?(name: string, request: AgentEvent<'tool_approval_request'>['data'], child: Agent): void;
  /** Counts usage spent for this call into the calling run (journaled with the call's result). */
  addUsage(usage: TokenUsage): void;
  /** Announces a child agent started by this call (tracing nests its spans, inspection finds it). */
  adopt(child: ChildAgentRun): void;
  /** Hands the conversation to agent `to` with these instructions, from the next request on. */
  handOff(to: string, instructions: string): void;
}
