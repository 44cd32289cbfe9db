import { resolve } from 'node:path';
import { printableLine } from '../core/printable.js';
import { redactPassword } from '../core/redact-url.js';
import { type JournalStore, openStore, STORE_URL_FORMS } from '../stores/index.js';
import { isSessionId } from '../stores/session-id.js';
import { UsageError } from './usage-error.js';

/** Where the CLI keeps sessions unless `--store` or `$AGENT_HARNESS_STORE` says otherwise. */
export const DEFAULT_STORE = 'sqlite:.agent-harness/sessions.db';

/** Help lines for `--store`, shared by the commands that take it. */
export const STORE_HELP = `  --store URL      where sessions are kept: sqlite:<file> (default ${DEFAULT_STORE},
                   or $AGENT_HARNESS_STORE), jsonl:<folder>, postgres://user:pw@host/db, memory:`;

/**
 * The store URL of `--store` (else `$AGENT_HARNESS_STORE`, else {@link DEFAULT_STORE}), checked
 * for its form before anything runs: a {@link UsageError} naming the value and the forms known.
 */
export function storeUrl(value: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = value ?? (env.AGENT_HARNESS_STORE || DEFAULT_STORE);
  const from = value === undefined ? '$AGENT_HARNESS_STORE' : '--store';
  const scheme = /^(memory:|jsonl:|sqlite:|postgres:\/\/|postgresql:\/\/)/.exec(url)?.[1];
  if (scheme === undefined) {
    throw new UsageError(
      `${from} must be a store URL (${STORE_URL_FORMS.join(', ')}), got '${printableLine(redactPassword(url))}'`,
    );
  }
  if ((scheme === 'jsonl:' || scheme === 'sqlite:') && url.length === scheme.length) {
    throw new UsageError(`${from} '${url}' names no path; use ${scheme}<path>`);
  }
  return url;
}

/** A session id from a flag or an argument, checked: a {@link UsageError} naming it otherwise. */
export function sessionIdArg(value: string, what: string): string {
  if (isSessionId(value)) return value;
  throw new UsageError(
    `${what} must be a session id (1-128 of A-Z a-z 0-9 . _ -, not starting with '.'), got '${printableLine(value)}'`,
  );
}

/** Opens the store of a URL checked by {@link storeUrl}. */
export function openCliStore(url: string): Promise<JournalStore> {
  return openStore(url);
}

/**
 * The absolute file or folder of a `sqlite:` or `jsonl:` store URL (relative to the current
 * directory, as {@link openCliStore} opens it); undefined for other stores. The workspace tools
 * are told to keep out of it.
 */
export function storeLocation(url: string, cwd: string = process.cwd()): string | undefined {
  const scheme = /^(sqlite:|jsonl:)/.exec(url)?.[1];
  return scheme === undefined ? undefined : resolve(cwd, url.slice(scheme.length));
}
