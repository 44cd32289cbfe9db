import type { PermissionPolicy } from '../config/permission-policy.js';
import type { AgentEvent } from '../core/agent-event.js';
import { addUsage, type TokenUsage } from '../core/usage.js';
import type { ChildSessions } from '../session/child-sessions.js';
import type { JournalStore } from '../stores/journal-store.js';
import type { Agent } from './agent.js';
import type { AgentRunContext, ChildAgentRun } from './agent-run-context.js';
import type { MachineDeps } from './run-handle.js';
import type { TreeSpend } from './tree-spend.js';

/**
 * What one tool call knows of its run (`ToolInvocation.run`), and what it learns while it runs:
 * usage it spent for the run (a child agent's) and a handoff it asked for, which go back to the
 * machine with its result. One object per call, its methods on the prototype (the hot path
 * makes one per call).
 */
export class CallRunContext implements AgentRunContext {
  /** Usage spent for the run so far (a child agent's), journaled with the call's result. */
  usage: TokenUsage | undefined = undefined;
  /** The agent the call handed the conversation to, if it did. */
  handoff: { readonly to: string; readonly instructions: string } | undefined = undefined;

  constructor(
    private readonly deps: MachineDeps,
    /** The session of the child agent the call runs (a tool that `runsAgent`). */
    readonly childSessionId: string | undefined,
  ) {}

  get sessionId(): string | undefined {
    return this.deps.session.id;
  }

  get store(): JournalStore | undefined {
    return this.deps.session.store;
  }

  get children(): ChildSessions {
    return this.deps.session.children;
  }

  get depth(): number {
    return this.deps.depth;
  }

  get spend(): TreeSpend | undefined {
    return this.deps.current()?.spend;
  }

  get permissions(): PermissionPolicy {
    return this.deps.session.config.permissions;
  }

  relayApproval(name: string, request: AgentEvent<'tool_approval_request'>['data'], child: Agent): void {
    this.deps.relayApproval(name, request, child);
  }

  get maxAgentDepth(): number {
    return this.deps.session.config.maxAgentDepth;
  }

  addUsage(usage: TokenUsage): void {
    this.usage = this.usage === undefined ? usage : addUsage(this.usage, usage);
  }

  adopt(child: ChildAgentRun): void {
    this.deps.adopt(child);
  }

  handOff(to: string, instructions: string): void {
    this.handoff = { to, instructions };
  }
}
