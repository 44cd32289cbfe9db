/** Monotonic milliseconds (`performance.now`): the default clock, one function for every agent and bus. */
export function monotonicNow(): number {
  return performance.now();
}
