/** Signals that stop a server (Ctrl-C, a process manager, a closed terminal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves on Ctrl-C (SIGINT), SIGTERM, SIGHUP, or when `signal` aborts — whichever comes
 * first — and removes its listeners.
 */
export function waitForStop(signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (signal?.aborted) return resolve();
    for (const name of STOP_SIGNALS) process.once(name, stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
