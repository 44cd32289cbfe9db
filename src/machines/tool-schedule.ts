/**
 * Which calls to start now. Calls run in the model's order; a maximal run of consecutive
 * concurrency-safe calls starts together, any other call starts alone, and nothing starts while
 * something is running. Returns the half-open range `[from, to)` to start.
 */
export function readyRange(
  concurrencySafe: readonly boolean[],
  nextToStart: number,
  running: number,
): { from: number; to: number } {
  const total = concurrencySafe.length;
  if (running > 0 || nextToStart >= total) return { from: nextToStart, to: nextToStart };
  let to = nextToStart + 1;
  if (concurrencySafe[nextToStart]) {
    while (to < total && concurrencySafe[to]) to++;
  }
  return { from: nextToStart, to };
}
