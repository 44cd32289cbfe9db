/**
 * The face of `core/` (row 1 of the layers in docs/architecture.md): the vocabulary every
 * other folder speaks — messages, usage, stream and agent events, errors, stable JSON, tool results
 * and kinds, journal entries, compaction and approval records, the `ModelClient` port.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type { AgentEventDataMap, BudgetKind, StopReason } from './agent-event.js';
export { AgentEvent, AgentEventType, isTerminal, STOP_REASONS } from './agent-event.js';
export type {
  ApprovalDecision,
  ApprovalRequestParams,
  ApproveEvent,
  DecisionParams,
  DenyEvent,
  Permission,
  PermissionRule,
  PolicyAnswer,
  PolicyContext,
  PolicyDecisionRecord,
  PolicyFunction,
  PolicyVerdict,
  SuspendEvent,
} from './approval-types.js';
export { PERMISSIONS } from './approval-types.js';
export type { BoundedTokenScale, Compaction, CompactionStrategy } from './compaction.js';
export { keptFrom } from './compaction.js';
export { checkContent, contentPartSchema } from './content-check.js';
export type { ContentPart, FilePart, ImagePart, MessageContent, TextPart } from './content-parts.js';
export {
  base64Bytes,
  contentText,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  hasAttachments,
  IMAGE_MEDIA_TYPES,
  partNote,
} from './content-parts.js';
export { debugLog } from './debug-log.js';
export type { HarnessErrorReason } from './errors.js';
export { errorMessage, HarnessError } from './errors.js';
export type {
  Guardrail,
  GuardrailAnswer,
  GuardrailContext,
  GuardrailOutcome,
  GuardrailStage,
  GuardrailVerdict,
} from './guardrail.js';
export { GUARDRAIL_STAGES, guardrailStopMessage, stopsRun } from './guardrail.js';
export type {
  AgentEndEntry,
  AgentErrorEntry,
  ApprovalDecisionEntry,
  ApprovalRequestEntry,
  AssistantMessageEntry,
  BudgetWarningEntry,
  CompactionEntry,
  DroppedReasoning,
  GuardrailEntry,
  HandoffEntry,
  JournalEntry,
  JournalEntryType,
  ModelSwitchEntry,
  ResetEntry,
  ToolResultEntry,
  ToolStartedEntry,
  TransitionEntry,
  TurnStartEntry,
  UsageEntry,
  UserMessageEntry,
} from './journal-entry.js';
export { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_ARGUMENTS, valueDeeperThan } from './json-depth.js';
export { LazyAbort, withLazySignal } from './lazy-abort.js';
export type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  ToolResultMessage,
  UserMessage,
} from './messages.js';
export type { ChatCompletionOptions, ModelClient, ModelStream, RequestedOutput } from './model-client.js';
export { monotonicNow } from './monotonic-now.js';
export { excerpt, jsonLine, printable, printableLine } from './printable.js';
export { isPromiseLike } from './promise-like.js';
export { hasCredentials, redactPassword, redactUrl, storableUrl } from './redact-url.js';
export { stableJson } from './stable-json.js';
export type { FinishReason, ModelSwitch, StreamError, TextDelta, ToolCallDelta } from './stream-event.js';
export { StreamEvent, StreamEventType, textOf } from './stream-event.js';
export type { ToolException } from './tool-exception.js';
export { exceptionOf, thrownResult, withException } from './tool-exception.js';
export { ToolKind } from './tool-kind.js';
export type { ToolDefinition } from './tool-params.js';
export { describeIssues, parametersSchema, parseArguments } from './tool-params.js';
export { abortedBeforeStart, ToolResult, toolMessageContent } from './tool-result.js';
export type { TokenUsage } from './usage.js';
export { addUsage, isTokenCount, tokenUsage, usageFromModel, ZERO_USAGE } from './usage.js';
