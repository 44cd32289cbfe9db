/**
 * Sub-agents and handoffs (`agent-harness/subagents`): the names of `src/subagents/`, and
 * `ranAgents`, the agents a saved run used (from `src/diagram/`, a higher layer).
 */

export { ranAgents } from './diagram/ran-agents.js';
export type {
  AgentToolOptions,
  ChildAgentRun,
  ChildJournals,
  HandoffAgent,
  HandoffToolOptions,
  SessionTree,
} from './subagents/index.js';
export {
  agentTool,
  ChildSessions,
  childSessionId,
  handoffTool,
  readSessionTree,
  TreeSpend,
} from './subagents/index.js';
