import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { checkEntry } from './journal-check.js';
import type { Session } from './session.js';
import { childSessionIds } from './session-tree.js';

/** Child journals by session id, as {@link Session.toJSON} saves them. */
export type ChildJournals = Readonly<Record<string, readonly JournalEntry[]>>;

/**
 * The sessions of the child agents a session's calls ran (`agentTool`) when the session has no
 * store, kept in memory by their parent: a resumed parent whose call is in doubt continues that
 * call's child from its journal (a finished child gives its recorded answer) instead of running
 * it again. Their journals go with the parent's in {@link Session.toJSON}, and come back with
 * `Session.fromJSON` or `Session.replay(journal, config, { children })`.
 *
 * Only what this process kept, or what a snapshot carried, is here: a journal file holds one
 * session, so across processes without a store or a snapshot a child's journal is not available
 * and its in-doubt call runs the child again.
 */
export class ChildSessions {
  private readonly kept = new Map<string, Session>();
  private readonly saved: ReadonlyMap<string, readonly JournalEntry[]>;

  /** Starts with `saved` journals (a snapshot's `children`), checked entry by entry. */
  constructor(saved: unknown = undefined) {
    this.saved = checkJournals(saved);
  }

  /** Keeps child `session` (by its id), instead of any journal known for that id before. */
  keep(session: Session): void {
    if (session.id === undefined)
      throw new HarnessError('invalid_argument', 'ChildSessions.keep: a child session needs an id');
    this.kept.set(session.id, session);
  }

  /** How many child journals are known, their children's included. */
  get size(): number {
    return this.journals().size;
  }

  /**
   * Every child journal known, by id, as deep as agents nested: the saved ones, then each kept
   * session's (its journal so far and its own children's), which win over saved ones.
   */
  journals(): Map<string, readonly JournalEntry[]> {
    const all = new Map(this.saved);
    for (const [id, session] of this.kept) {
      for (const [child, journal] of session.children.journals()) all.set(child, journal);
      all.set(id, session.journal);
    }
    return all;
  }

  /** The journals of child `id`'s own children, at every depth (what its session starts with). */
  descendants(id: string, known: ReadonlyMap<string, readonly JournalEntry[]> = this.journals()): ChildJournals {
    const found: Record<string, readonly JournalEntry[]> = {};
    const queue = childSessionIds(known.get(id) ?? []);
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const journal = known.get(next);
      if (journal === undefined || next in found || next === id) continue;
      found[next] = journal;
      queue.push(...childSessionIds(journal));
    }
    return found;
  }
}

/** Reads a snapshot's `children`: an object of journals; `invalid_journal` naming what is wrong. */
function checkJournals(saved: unknown): ReadonlyMap<string, readonly JournalEntry[]> {
  const journals = new Map<string, readonly JournalEntry[]>();
  if (saved === undefined) return journals;
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved))
    throw new HarnessError('invalid_journal', "the child sessions ('children') must be an object of journals by id");
  for (const [id, journal] of Object.entries(saved)) {
    if (!Array.isArray(journal))
      throw new HarnessError('invalid_journal', `child session '${id}': its journal must be an array of entries`);
    try {
      journals.set(id, Object.freeze(journal.map((raw, index) => checkEntry(raw, index))));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new HarnessError('invalid_journal', `child session '${id}': ${message}`, { cause: error });
    }
  }
  return journals;
}
