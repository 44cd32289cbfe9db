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
  HandoffEntry,
  JournalEntry,
  JournalEntryType,
  ResetEntry,
  ToolResultEntry,
  ToolStartedEntry,
  TransitionEntry,
  TurnStartEntry,
  UsageEntry,
  UserMessageEntry,
} from './core/index.js';
export { stableJson } from './core/index.js';
export type {
  EventBusOptions,
  StreamRecord,
  Subscriber,
  SubscriberErrorHandler,
  Unsubscribe,
} from './events/index.js';
export { DEFAULT_STOP_GRACE_MS, SubscriberTimeoutError } from './events/index.js';
export type {
  AppendListener,
  JournalHeader,
  LogRecord,
  PairingProblem,
  ReadJournalOptions,
  StoreFailureListener,
  ToolCallInput,
} from './session/index.js';
export {
  checkJournalVersion,
  checkToolPairing,
  JOURNAL_VERSION,
  JOURNAL_VERSION_META,
  parseJournal,
  READABLE_JOURNAL_VERSIONS,
  readJournalFile,
  serializeJournal,
  writeJournalFile,
} from './session/index.js';
