/** One size tried by {@link largestPassing}, and whether it passed. */
export interface Probe<T> {
  readonly n: number;
  readonly passed: boolean;
  readonly detail: T;
}

/**
 * The largest n in [1, limit] for which `trial` passes, assuming that passing is monotone (what
 * holds at n holds below it): doubles from `from` until a size fails (or `limit` passes), then
 * halves the gap until it is within `resolution` of the size that passed (or 1). Returns 0 when
 * even 1 fails, with every probe in the order tried.
 */
export async function largestPassing<T>(
  trial: (n: number) => Promise<{ passed: boolean; detail: T }>,
  from: number,
  limit: number,
  resolution = 0.1,
): Promise<{ largest: number; probes: Probe<T>[] }> {
  const probes: Probe<T>[] = [];
  const probe = async (n: number): Promise<boolean> => {
    const { passed, detail } = await trial(n);
    probes.push({ n, passed, detail });
    return passed;
  };
  let passing = 0;
  let failing: number | undefined;
  for (let n = Math.min(from, limit); failing === undefined; n = Math.min(limit, n * 2)) {
    if (!(await probe(n))) failing = n;
    else {
      passing = n;
      if (n >= limit) return { largest: passing, probes };
    }
  }
  while (failing - passing > Math.max(1, passing * resolution)) {
    const middle = Math.floor((passing + failing) / 2);
    if (await probe(middle)) passing = middle;
    else failing = middle;
  }
  return { largest: passing, probes };
}
