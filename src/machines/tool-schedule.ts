import { DEFAULT_MAX_PARALLEL_TOOLS } from '../config/config.js';

export { DEFAULT_MAX_PARALLEL_TOOLS };

/**
 * Which calls to start now. Calls run in the model's order; a maximal run of consecutive
 * concurrency-safe calls (a batch) runs together, at most `maxParallel` at a time, and any other
 * call runs alone. While an unsafe call runs nothing starts; while calls of a batch run, the
 * batch's next calls start as others settle, up to the cap. Returns the half-open range
 * `[from, to)` to start.
 */
export function readyRange(
  concurrencySafe: readonly boolean[],
  nextToStart: number,
  running: number,
  maxParallel: number = DEFAULT_MAX_PARALLEL_TOOLS,
): { from: number; to: number } {
  const total = concurrencySafe.length;
  const none = { from: nextToStart, to: nextToStart };
  if (nextToStart >= total) return none;
  const safe = concurrencySafe[nextToStart] === true;
  // Something runs: only the rest of its batch may join it (calls start in order, so the calls
  // running are a batch exactly when the last one started was safe).
  if (running > 0 && !(safe && concurrencySafe[nextToStart - 1] === true)) return none;
  if (!safe) return { from: nextToStart, to: nextToStart + 1 };
  const room = Math.max(0, maxParallel - running);
  let to = nextToStart;
  while (to < total && to - nextToStart < room && concurrencySafe[to]) to++;
  return { from: nextToStart, to };
}
