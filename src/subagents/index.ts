/**
 * Sub-agents and handoffs (`agent-harness/subagents`): a child agent as a tool, a handoff to
 * another agent, and reading the tree of sessions a run made.
 */

export type { ChildAgentRun } from '../agent/agent-run-context.js';
export type { HandoffAgent } from '../agent/handoffs.js';
export { TreeSpend } from '../agent/tree-spend.js';
export { childSessionId } from '../session/child-session-id.js';
export type { ChildJournals } from '../session/child-sessions.js';
export { ChildSessions } from '../session/child-sessions.js';
export type { SessionTree } from '../session/session-tree.js';
export { readSessionTree } from '../session/session-tree.js';
export type { AgentToolOptions } from './agent-tool.js';
export { agentTool } from './agent-tool.js';
export type { HandoffToolOptions } from './handoff-tool.js';
export { handoffTool } from './handoff-tool.js';
