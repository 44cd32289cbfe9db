/** Kills that run when this process exits, for children that were never closed. */
const pending = new Set<() => void>();

function onExit(): void {
  for (const kill of pending) {
    try {
      kill();
    } catch {
      // Best effort: the process is going away.
    }
  }
}

/**
 * Runs `kill` (synchronously) if this process exits while it is registered: the last chance
 * to stop a server whose source was never closed. Returns the function that unregisters it.
 * Not reached when the process dies of a signal it does not handle (then a stdio server sees
 * its stdin close).
 */
export function killOnExit(kill: () => void): () => void {
  if (pending.size === 0) process.on('exit', onExit);
  pending.add(kill);
  return () => {
    if (pending.delete(kill) && pending.size === 0) process.off('exit', onExit);
  };
}
