import { currentOwner, isOwnerAlive, type LockOwner } from './process-liveness.js';

const held = new Set<string>();

/** Records that a writer of this process holds the lock with `token`, until {@link releaseToken}. */
export function holdToken(token: string): void {
  held.add(token);
}

/** Records that the writer holding `token` has let go, even if its lock record could not be removed. */
export function releaseToken(token: string): void {
  held.delete(token);
}

/**
 * Whether a lock record still belongs to a live writer: its process runs ({@link isOwnerAlive})
 * and, when that process is this one, one of its writers still holds the token. A record left by
 * a writer of this process whose removal failed (e.g. on a full disk) is thus stale at once,
 * instead of locking the session until the process ends.
 */
export function isLockLive(owner: LockOwner & { readonly token: string }): boolean {
  if (!isOwnerAlive(owner)) return false;
  const me = currentOwner();
  const mine = owner.pid === me.pid && owner.host === me.host && owner.start === me.start;
  return !mine || held.has(owner.token);
}
