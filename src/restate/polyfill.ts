/**
 * `Promise.withResolvers`, which the Restate SDK uses and Node 20 lacks (it came in Node 22).
 * Installed only where it is missing. Called by `agentObject` (so a bundler that drops
 * side-effect imports cannot lose it), and on import.
 */
export function ensurePromiseWithResolvers(): void {
  if (typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function') return;
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

ensurePromiseWithResolvers();
