/**
 * The agent machine (`agent-harness/machine`), for re-providing its actions and actors, model
 * checking and diagrams: the machine, its context, events and action parameters, the loop's
 * defaults and stop reasons, what a model client's stream carries, and the runtime's option
 * types that the root leaves out.
 */

export type { AgentEndWithOutput, ApprovalMap, MachineClock, ToolSource } from './agent/index.js';
export { checkPolicyKeys, type PolicyKeyProblem, policyKeyProblem } from './agent/index.js';
export {
  DEFAULT_MAX_AGENT_DEPTH,
  DEFAULT_MAX_INVALID_TOOL_CALLS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  DEFAULT_MAX_TURNS,
} from './config/index.js';
export type {
  FinishReason,
  HarnessErrorReason,
  RequestedOutput,
  StreamError,
  TextDelta,
  ToolCallDelta,
} from './core/index.js';
export { errorMessage, STOP_REASONS, textOf } from './core/index.js';
export type {
  AbortEvent,
  AgentContext,
  AgentMachineEvent,
  AgentMachineInput,
  AgentStateName,
  ApprovalDecision,
  ApprovalRequestParams,
  ApproveEvent,
  CancelToolEvent,
  CompactedEvent,
  CompactParams,
  DecisionParams,
  DenyEvent,
  HandoffEvent,
  HandoffParams,
  InternalErrorEvent,
  InvalidCallCount,
  InvalidCalls,
  ModelErrorEvent,
  ModelRequestParams,
  ModelTurn,
  ModelTurnEvent,
  PendingCalls,
  RejectOutputParams,
  ReportParams,
  RunLimits,
  StopInfo,
  SuspendEvent,
  ToolActorInput,
  ToolBatch,
  ToolResultParams,
  ToolSettledEvent,
  TreeBudget,
} from './machines/index.js';
export { agentMachine, DEFAULT_OUTPUT_RETRIES, invalidCallError, MAIN_AGENT } from './machines/index.js';
