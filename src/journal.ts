/**
 * Journals (`agent-harness/journal`): the entry types, reading and writing journal files,
 * version and pairing checks, and the event bus's options (the bus is the journal's stream).
 */

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
} from './core/journal-entry.js';
export type { ReasoningContent, ReasoningPart, RedactedReasoningPart } from './core/messages.js';
export { stableJson } from './core/stable-json.js';
export type {
  DeliveryGate,
  EventBusOptions,
  StreamRecord,
  Subscriber,
  SubscriberErrorHandler,
  Unsubscribe,
} from './events/event-bus.js';
export { DEFAULT_STOP_GRACE_MS } from './events/event-bus.js';
export { SubscriberTimeoutError } from './events/subscriber-timeout-error.js';
export type { JournalHeader, ParsedJournal, ReadJournalOptions } from './session/journal-file.js';
export { parseJournal, readJournalFile, serializeJournal, writeJournalFile } from './session/journal-file.js';
export type { AppendListener, LogRecord } from './session/journal-log.js';
export type { PairingProblem } from './session/journal-pairing.js';
export { checkToolPairing } from './session/journal-pairing.js';
export { checkJournalVersion, JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS } from './session/journal-version.js';
export type { ReplayOptions, ToolCallInput } from './session/session.js';
export { JOURNAL_VERSION_META } from './session/session.js';
export type { StoreFailureListener } from './session/session-writer.js';
