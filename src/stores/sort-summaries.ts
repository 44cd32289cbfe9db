import type { SessionSummary } from './journal-store.js';

/** Summaries ordered by id, code unit by code unit (as SQL's binary collation orders them). */
export function sortSummaries(summaries: SessionSummary[]): SessionSummary[] {
  return summaries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
