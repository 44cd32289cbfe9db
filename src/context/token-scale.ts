/**
 * The fewest provider tokens per estimated token taken at face value. A provider that reports
 * fewer (zero-ish counts, as some OpenAI-compatible servers send) would make the context look
 * small enough never to compact, and the request would overflow at the real model.
 */
export const MIN_TOKEN_SCALE = 0.5;
/** The most provider tokens per estimated token taken at face value. */
export const MAX_TOKEN_SCALE = 8;

/**
 * A provider's reported tokens per estimated token, bounded to
 * [{@link MIN_TOKEN_SCALE}, {@link MAX_TOKEN_SCALE}]; a ratio that is not a number is 1.
 */
export function boundTokenScale(reported: number): number {
  if (Number.isNaN(reported)) return 1;
  return Math.min(MAX_TOKEN_SCALE, Math.max(MIN_TOKEN_SCALE, reported));
}
