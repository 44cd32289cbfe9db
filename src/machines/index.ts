/**
 * The face of `machines/` (row 4): the agent machine's chart, its types and pure rules.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export { agentMachine, MAIN_AGENT } from './agent-machine.js';
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
  Permission,
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
} from './agent-machine-types.js';
export { gateCalls, waitingCalls } from './approval-gate.js';
export { softLimitMessage } from './budget-message.js';
export type { InvalidCallCount, InvalidCalls } from './invalid-calls.js';
export { countCall, invalidCallError, invalidCallErrorOfContent } from './invalid-calls.js';
export type { OutputCheck, StreamedTurn } from './model-turn.js';
export { DEFAULT_OUTPUT_RETRIES } from './output-rules.js';
export type { ToolCallRunner } from './tool-actor-logic.js';
export { toolActorLogic } from './tool-actor-logic.js';
