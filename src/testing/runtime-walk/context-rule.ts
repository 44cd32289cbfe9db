import type { WalkView } from './walk-types.js';

/**
 * The context limit at its boundary: a compaction is made only when the context is over
 * `context.maxTokens` (a context exactly at the limit is sent as it is).
 */
export function contextBoundary(view: WalkView): string[] {
  const limit = view.config.context?.maxTokens;
  if (limit === undefined) return [];
  return view.journal.flatMap((entry, i) =>
    entry.type === 'compaction' && entry.tokensBefore <= limit
      ? [`entry ${i} compacts a context of ${entry.tokensBefore} tokens, not over context.maxTokens ${limit}`]
      : [],
  );
}
