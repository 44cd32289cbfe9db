/**
 * The process groups of shell commands still running, by group id (the leader's pid). Kept per
 * process, not per tool, because what they guard against is the host process going away: a
 * detached group outlives its parent unless someone kills it, and `process.on('exit')` is the
 * last moment anyone can.
 */
const live = new Set<number>();

/** SIGKILL, not SIGTERM: nothing runs after an exit listener to follow up on a group that ignores it. */
function killAllOnExit(): void {
  for (const group of live) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Gone already (ESRCH): nothing to kill.
    }
  }
  live.clear();
}

/**
 * Marks a process group as running: if the host process exits (`process.exit()`, an uncaught
 * exception, the event loop running dry) before {@link releaseProcessGroup}, the group is killed
 * with SIGKILL. The exit listener is there only while some group is.
 */
export function trackProcessGroup(group: number): void {
  if (live.size === 0) process.on('exit', killAllOnExit);
  live.add(group);
}

/** The group is gone (or was killed for good): forget it, so its id is never signalled again. */
export function releaseProcessGroup(group: number): void {
  if (!live.delete(group)) return;
  if (live.size === 0) process.off('exit', killAllOnExit);
}

/** How many process groups are tracked as running: for tests. */
export function liveProcessGroupCount(): number {
  return live.size;
}
