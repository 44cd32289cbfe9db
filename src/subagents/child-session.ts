import type { ModelClient } from '../adapters/model-client.js';
import type { Config } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../session/journal-entry.js';
import { Session } from '../session/session.js';
import type { JournalStore } from '../stores/journal-store.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ToolResult } from '../tools/tool-result.js';

/** What a child agent runs with. */
export interface ChildSpec {
  readonly config: Config;
  readonly client: ModelClient;
  readonly registry: ToolRegistry | undefined;
}

/**
 * A call's child session, as the call finds it: `new` (run the task), `interrupted` (a crash cut
 * its run: resume it), or `ended` (it finished before: its recorded answer is the result, and it
 * never runs again).
 */
export type ChildSession =
  | { readonly kind: 'new' | 'interrupted'; readonly session: Session }
  | { readonly kind: 'ended'; readonly session: Session; readonly result: ToolResult };

/** The tool result of a child run's end entry: its answer, or `<reason>: <message>` as an error. */
export function resultOfEnd(entry: JournalEntry | undefined): ToolResult | undefined {
  if (entry?.type === 'agent_end') return ToolResult.success(entry.response);
  if (entry?.type === 'agent_error') return ToolResult.error(`${entry.reason}: ${entry.message}`);
  return undefined;
}

/**
 * Opens the child session `id`: in `store` beside its parent when there is one (loaded if it is
 * there, created if not), in memory otherwise.
 */
export async function openChildSession(
  spec: ChildSpec,
  id: string,
  store: JournalStore | undefined,
): Promise<ChildSession> {
  const { config, client, registry } = spec;
  if (store === undefined) return { kind: 'new', session: new Session(config, { client, registry, id }) };
  let session: Session;
  try {
    session = await Session.load(store, id, { config, client, registry });
  } catch (error) {
    if (!(HarnessError.isInstance(error) && error.reason === 'session_not_found')) throw error;
    return { kind: 'new', session: new Session(config, { client, registry, store, id }) };
  }
  const { journal } = session;
  const result = resultOfEnd(journal.at(-1));
  if (result !== undefined) return { kind: 'ended', session, result };
  // Created, but killed before its task was durable: start it again.
  if (!journal.some((entry) => entry.type === 'user_message')) return { kind: 'new', session };
  return { kind: 'interrupted', session };
}
