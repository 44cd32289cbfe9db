/**
 * One `abort` listener per signal, shared by every call that watches it. A run's tool calls all
 * watch the run's signal; `addEventListener`/`removeEventListener` per call cost more than the
 * rest of the guard, and the listeners would pile up on a long-lived signal.
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
