import type { JournalEntry } from '../../core/journal-entry.js';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../../core/usage.js';
import type { WalkView } from './walk-types.js';

/** A child's requests made once the tree had used more tokens than the root may. */
function childProblems(id: string, child: readonly JournalEntry[], before: TokenUsage, max: number): string[] {
  let used = before;
  const problems: string[] = [];
  child.forEach((entry, i) => {
    if (entry.type === 'usage') used = addUsage(used, entry.usage);
    if (entry.type === 'turn_start' && used.totalTokens > max)
      problems.push(
        `sub-agent ${id} asks its model at its entry ${i} when the tree has used ${used.totalTokens} tokens, over the root's maxTotalTokens ${max}`,
      );
  });
  return problems;
}

/**
 * The tree's budget: nothing under the root asks its model once the tree (the root's run so
 * far and the sub-agent's own turns; each run on its own) has used more tokens than the root's `maxTotalTokens`, so
 * the tree spends past the root's budget by one request at most.
 */
export function treeBudget(view: WalkView): string[] {
  const max = view.config.budget.maxTotalTokens;
  if (max === undefined) return [];
  const problems: string[] = [];
  let used: TokenUsage = ZERO_USAGE;
  const starts = new Set(view.runStarts);
  view.journal.forEach((entry, i) => {
    if (starts.has(i)) used = ZERO_USAGE; // each run, a resumed one too, has the whole budget
    if (entry.type === 'usage') used = addUsage(used, entry.usage);
    if (entry.type === 'tool_result' && entry.usage !== undefined) used = addUsage(used, entry.usage);
    if (entry.type !== 'tool_started' || entry.childSessionId === undefined) return;
    const child = view.children.get(entry.childSessionId);
    if (child !== undefined) problems.push(...childProblems(entry.childSessionId, child, used, max));
  });
  return problems;
}
