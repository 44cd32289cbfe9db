import type { Config } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { ToolResult } from '../core/tool-result.js';
import type { ChildSessions } from '../session/child-sessions.js';
import { Session } from '../session/session.js';
import type { JournalStore } from '../stores/journal-store.js';

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
 * there, created if not); otherwise in memory, from the journal the parent kept or was given
 * (`children`), or new, and kept by the parent from then on.
 */
export async function openChildSession(
  config: Config,
  id: string,
  store: JournalStore | undefined,
  children: ChildSessions,
): Promise<ChildSession> {
  if (store === undefined) return openKept(config, id, children);
  let session: Session;
  try {
    session = await Session.load(store, id, { config });
  } catch (error) {
    if (!(HarnessError.isInstance(error) && error.reason === 'session_not_found')) throw error;
    return { kind: 'new', session: new Session(config, { store, id }) };
  }
  return classify(session);
}

/** Opens child `id` from the journal its parent kept (a new session when there is none) and keeps it. */
function openKept(config: Config, id: string, children: ChildSessions): ChildSession {
  const known = children.journals();
  const journal = known.get(id);
  // Its own children's journals go with it, so its own calls in doubt continue them in turn.
  const options = { id, children: children.descendants(id, known) };
  const session = journal === undefined ? new Session(config, options) : Session.replay(journal, config, options);
  children.keep(session);
  return classify(session);
}

/** What a found child session is: ended (with its answer), interrupted, or not yet started. */
function classify(session: Session): ChildSession {
  const { journal } = session;
  const result = resultOfEnd(journal.at(-1));
  if (result !== undefined) return { kind: 'ended', session, result };
  // Created, but killed before its task was durable: start it again.
  if (!journal.some((entry) => entry.type === 'user_message')) return { kind: 'new', session };
  return { kind: 'interrupted', session };
}
