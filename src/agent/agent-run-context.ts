import type { AgentEvent } from '../core/agent-event.js';
import type { ChildSessions } from '../session/child-sessions.js';
import type { JournalStore } from '../stores/journal-store.js';
import type { ToolRunContext } from '../tools/tool-run-context.js';
import type { Agent } from './agent.js';
import type { TreeSpend } from './tree-spend.js';

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
 * The run context an `Agent` hands its tools: the tool-level {@link ToolRunContext} plus what a
 * sub-agent tool needs of its parent's run: where to keep the child's session, the run's live
 * spend, the approver to relay to, and a way to announce the child.
 */
export interface AgentRunContext extends ToolRunContext {
  /** The calling session's store, if any: a child session is kept beside it. */
  readonly store: JournalStore | undefined;
  /** Without a store, where the calling session keeps its child sessions in memory (`Session.children`). */
  readonly children: ChildSessions;
  /**
   * The calling run's live spend, with its sub-agents' (undefined outside a run of an `Agent`):
   * a sub-agent started by this call runs under it (`AgentOptions.parentSpend`).
   */
  readonly spend?: TreeSpend;
  /**
   * Hands a sub-agent's approval request to the calling agent's approver: it is emitted on the
   * calling run's stream with the agent tool's name before its `path`, and the calling agent's
   * `approve(callId)` / `deny(callId)` decide it on `child`.
   */
  relayApproval?(name: string, request: AgentEvent<'tool_approval_request'>['data'], child: Agent): void;
  /** Announces a child agent started by this call (tracing nests its spans, inspection finds it). */
  adopt(child: ChildAgentRun): void;
}

/** The run context of a call made by an `Agent`'s run, or undefined for any other (or none). */
export function agentRunOf(run: ToolRunContext | undefined): AgentRunContext | undefined {
  return run !== undefined && 'adopt' in run && 'children' in run ? (run as AgentRunContext) : undefined;
}
