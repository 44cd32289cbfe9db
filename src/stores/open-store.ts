import { HarnessError } from '../core/errors.js';
import { redactPassword } from '../core/redact-url.js';
import type { JournalStore } from './journal-store.js';
import { JsonlStore } from './jsonl/jsonl-store.js';
import { MemoryStore } from './memory-store.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { StoreOptions } from './store-options.js';

/** The URL forms {@link openStore} understands. */
export const STORE_URL_FORMS: readonly string[] = [
  'memory:[name]',
  'jsonl:<folder>',
  'sqlite:<file>',
  'postgres://user:password@host:port/database[?schema=name]',
];

function pathOf(url: string, scheme: string): string {
  const path = url.slice(scheme.length);
  if (path === '') {
    throw new HarnessError('invalid_argument', `store URL '${url}' names no path; use ${scheme}<path>`);
  }
  return path;
}

/**
 * Opens a {@link JournalStore} by URL: `memory:` (this process only; `memory:<name>` shares by name),
 * `jsonl:<folder>`, `sqlite:<file>` or `postgres://…` (also `postgresql://`). Paths are relative to the
 * working directory. An unknown scheme throws `invalid_argument` listing the supported ones; a
 * missing driver package throws `missing_dependency`.
 */
export async function openStore(url: string, options: StoreOptions = {}): Promise<JournalStore> {
  if (typeof url !== 'string')
    throw new HarnessError('invalid_argument', `a store URL must be a string, not ${typeof url}`);
  if (url.startsWith('memory:')) return new MemoryStore(url.slice('memory:'.length), options.now);
  if (url.startsWith('jsonl:')) return JsonlStore.open(pathOf(url, 'jsonl:'), options);
  if (url.startsWith('sqlite:')) return SqliteStore.open(pathOf(url, 'sqlite:'), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return PostgresStore.open(url, options);
  throw new HarnessError(
    'invalid_argument',
    `unknown store URL '${redactPassword(url)}'; supported: ${STORE_URL_FORMS.join(', ')}`,
  );
}
