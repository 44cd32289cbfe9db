/**
 * The face of `session/` (row 4): the journal — `Session`, its log, checks, files and child
 * sessions.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export { childSessionId } from './child-session-id.js';
export type { ChildJournals } from './child-sessions.js';
export { ChildSessions } from './child-sessions.js';
export type { JournalHeader, ParsedJournal, ReadJournalOptions } from './journal-file.js';
export { journalMeta, parseJournal, readJournalFile, serializeJournal, writeJournalFile } from './journal-file.js';
export type { AppendListener, LogRecord } from './journal-log.js';
export type { PairingProblem } from './journal-pairing.js';
export { checkToolPairing } from './journal-pairing.js';
export { checkJournalVersion, JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS } from './journal-version.js';
export type {
  ForkOptions,
  LoadOptions,
  ReplayOptions,
  SessionOptions,
  SessionSnapshot,
  ToolCallInput,
} from './session.js';
export { JOURNAL_VERSION_META, Session } from './session.js';
export type { SessionTree } from './session-tree.js';
export { readSessionTree } from './session-tree.js';
export type { StoreFailureListener } from './session-writer.js';
