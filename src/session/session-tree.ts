import type { JournalEntry } from '../core/journal-entry.js';
import type { JournalStore } from '../stores/journal-store.js';
import { checkEntry } from './journal-check.js';

/** A session and the sessions of every agent it started (`agentTool`), at every depth. */
export interface SessionTree {
  /** The root session's id. */
  readonly id: string;
  /** Every session of the tree by id, the root's included. */
  readonly journals: ReadonlyMap<string, readonly JournalEntry[]>;
  /** Child session ids whose journal the store does not hold (a call killed before its child's first entry). */
  readonly missing: readonly string[];
}

/** The child session ids a journal references (its `tool_started` entries), in order, without repeats. */
export function childSessionIds(journal: readonly JournalEntry[]): string[] {
  const ids = new Set<string>();
  for (const entry of journal)
    if (entry.type === 'tool_started' && entry.childSessionId !== undefined) ids.add(entry.childSessionId);
  return [...ids];
}

/**
 * Reads a session and, following the `childSessionId` of its calls, the sessions of the agents
 * it started, from one store (where `agentTool` keeps them beside their parent). What the
 * inspector's nested timeline and the delegation invariants read.
 */
export async function readSessionTree(store: JournalStore, id: string): Promise<SessionTree> {
  const journals = new Map<string, readonly JournalEntry[]>();
  const missing: string[] = [];
  const queue = [id];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (journals.has(next)) continue;
    let entries: readonly JournalEntry[];
    try {
      entries = (await store.read(next)).entries.map((raw, index) => checkEntry(raw, index));
    } catch (error) {
      if (next === id || (error as { reason?: unknown }).reason !== 'session_not_found') throw error;
      missing.push(next);
      continue;
    }
    journals.set(next, entries);
    queue.push(...childSessionIds(entries));
  }
  return { id, journals, missing };
}
