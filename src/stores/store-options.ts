import type { JsonlFileSystem } from './jsonl/jsonl-file-system.js';

/** When the `jsonl:` store calls fsync: per line, once per `append`, or never (kill -9 safe, not power-loss safe). */
export type FsyncPolicy = 'always' | 'batch' | 'never';

/** SQLite's `synchronous` pragma: `normal` survives kill -9, `full` also survives power loss. */
export type SqliteSynchronous = 'normal' | 'full';

/** Options of `openStore`; each store reads the ones that concern it and ignores the rest. */
export interface StoreOptions {
  /** `jsonl:` — when to fsync (default `batch`: once per `append`, the durable point). */
  readonly fsync?: FsyncPolicy;
  /** `jsonl:` — the file-system calls it makes (default: node:fs); tests inject ENOSPC/EIO here. */
  readonly fs?: JsonlFileSystem;
  /** `sqlite:` — the `synchronous` pragma (default `normal`; WAL mode either way). */
  readonly synchronous?: SqliteSynchronous;
  /** `sqlite:` — more pragmas for its connection, e.g. `{ cache_size: -64000 }`. */
  readonly pragmas?: Readonly<Record<string, string | number>>;
  /** `postgres:` — the schema holding the tables (default `public`; also `?schema=` in the URL). */
  readonly schema?: string;
  /** The clock for `updatedAt` (default `() => new Date()`). */
  readonly now?: () => Date;
}
