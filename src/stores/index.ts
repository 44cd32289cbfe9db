/**
 * Stores (`agent-harness/stores`): the store classes behind `openStore`, their options and
 * formats. A driver package (`better-sqlite3`, `pg`) loads when its store is first used.
 */

export { redactPassword } from '../core/redact-url.js';
export type {
  JournalStore,
  JournalWriter,
  OpenWriterOptions,
  SessionStatus,
  SessionSummary,
  StoredEntry,
  StoredJournal,
} from './journal-store.js';
export type { JsonlFileSystem } from './jsonl/jsonl-file-system.js';
export { nodeFileSystem } from './jsonl/jsonl-file-system.js';
export { JSONL_FORMAT, JSONL_VERSION, type JsonlHeader } from './jsonl/jsonl-format.js';
export { JsonlStore, type JsonlStoreOptions } from './jsonl/jsonl-store.js';
export { MemoryStore } from './memory-store.js';
export { openStore, STORE_URL_FORMS } from './open-store.js';
export { POSTGRES_VERSION } from './postgres/postgres-schema.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres/postgres-store.js';
export { checkSessionId } from './session-id.js';
export { sessionStatusAfter } from './session-status.js';
export { SQLITE_VERSION } from './sqlite/sqlite-schema.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export type { FsyncPolicy, SqliteSynchronous, StoreOptions } from './store-options.js';
