/**
 * One `abort` listener per signal, shared by every call that watches it: a caller of
 * `registry.invoke` may pass one long-lived signal to many calls, and
 * `addEventListener`/`removeEventListener` per call cost more than the rest of the guard. (A
 * run's calls each have their own `LazyAbort`, watched without a signal.)
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

function watchersOf(signal: AbortSignal): Set<() => void> {
  let set = watchers.get(signal);
  if (set === undefined) {
    const created = new Set<() => void>();
    signal.addEventListener(
      'abort',
      () => {
        for (const watcher of [...created]) watcher();
        created.clear();
      },
      { once: true },
    );
    watchers.set(signal, created);
    set = created;
  }
  return set;
}

/** Calls `onAbort` once when `signal` aborts; returns the function that stops watching. */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  const set = watchersOf(signal);
  set.add(onAbort);
  return () => set.delete(onAbort);
}
