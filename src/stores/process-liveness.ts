import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock: enough to tell, on this host, whether that process still runs. */
export interface LockOwner {
  /** Process id. */
  readonly pid: number;
  /** Host name; a lock taken on another host is never considered stale. */
  readonly host: string;
  /** The process's start time in clock ticks since boot (Linux `/proc`), guarding against pid reuse; '' elsewhere. */
  readonly start: string;
}

/** The start time of process `pid` from `/proc/<pid>/stat` (field 22), or '' where there is no /proc. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

let self: LockOwner | undefined;

/** This process as a {@link LockOwner}. */
export function currentOwner(): LockOwner {
  self ??= { pid: process.pid, host: hostname(), start: processStart(process.pid) };
  return self;
}

/**
 * Whether the process that took a lock may still be running: always true for another host;
 * otherwise whether `pid` exists and, when known, started when the lock says (a container
 * restarted with the same pid is a new process, and its old locks are stale).
 */
export function isOwnerAlive(owner: LockOwner): boolean {
  const me = currentOwner();
  if (owner.host !== me.host) return true;
  if (owner.pid === me.pid) return owner.start === '' || me.start === '' || owner.start === me.start;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPERM') return false;
  }
  if (owner.start === '') return true;
  const start = processStart(owner.pid);
  return start === '' || start === owner.start;
}

/** A lock owner as a short human string, e.g. `pid 4242 on build-1`. */
export function describeOwner(owner: LockOwner): string {
  return `pid ${owner.pid} on ${owner.host}`;
}
