/**
 * The face of `agent/` (row 5): the runtime — `Agent`, its options, the provided machine, the
 * run context tools see, handoffs and the tree's live spend.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type {
  AgentEndWithOutput,
  AgentOptions,
  MachineClock,
  ResumeOptions,
  RunEvent,
  RunOptions,
  ToolSource,
} from './agent.js';
export { Agent } from './agent.js';
export type { AgentRunContext, ChildAgentRun } from './agent-run-context.js';
export { agentRunOf } from './agent-run-context.js';
export type { ApprovalMap } from './approval-controls.js';
export type { HandoffAgent } from './handoffs.js';
export { markHandoff } from './handoffs.js';
export type { PolicyKeyProblem } from './policy-keys.js';
export { checkPolicyKeys, policyKeyProblem } from './policy-keys.js';
export { verdictOf } from './policy-verdicts.js';
export { agentRunMachine } from './provide-machine.js';
export { TreeSpend } from './tree-spend.js';
