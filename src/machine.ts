/**
 * The agent machine (`agent-harness/machine`), for re-providing its actions and actors, model
 * checking and diagrams: the machine, its context, events and action parameters, the loop's
 * defaults and stop reasons, what a model client's stream carries, and the runtime's option
 * types that the root leaves out.
 */

export type { AgentEndWithOutput, MachineClock, ToolSource } from './agent/agent.js';
export type { ApprovalMap } from './agent/approval-controls.js';
export { checkPolicyKeys, type PolicyKeyProblem, policyKeyProblem } from './agent/policy-keys.js';
export {
  DEFAULT_MAX_AGENT_DEPTH,
  DEFAULT_MAX_INVALID_TOOL_CALLS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  DEFAULT_MAX_TURNS,
} from './config/config.js';
export { STOP_REASONS } from './core/agent-event.js';
export type { HarnessErrorReason } from './core/errors.js';
export { errorMessage } from './core/errors.js';
export type { RequestedOutput } from './core/model-client.js';
export type { FinishReason, StreamError, TextDelta, ToolCallDelta } from './core/stream-event.js';
export { textOf } from './core/stream-event.js';
export { agentMachine, MAIN_AGENT } from './machines/agent-machine.js';
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
  CheckGuardrailsParams,
  CompactedEvent,
  CompactParams,
  DecisionParams,
  DenyEvent,
  GuardrailCheckedEvent,
  GuardrailGate,
  GuardrailStages,
  HandoffEvent,
  HandoffParams,
  InternalErrorEvent,
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
  ToolSourceErrorEvent,
  TreeBudget,
} from './machines/agent-machine-types.js';
export type { InvalidCallCount, InvalidCalls } from './machines/invalid-calls.js';
export { invalidCallError } from './machines/invalid-calls.js';
export { DEFAULT_OUTPUT_RETRIES } from './machines/output-rules.js';
