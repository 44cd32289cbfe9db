import type { Agent } from './agent.js';

/**
 * The sub-agents' calls an agent's approver was asked about (`tool_approval_request` with a
 * `path`), by call id: a decision given to the agent that no call of its own takes goes on to
 * the sub-agent that asked (which may pass it further down). Call ids are each model's own, so
 * sub-agents running at once may ask about the same id: each request then takes one decision,
 * in the order they asked.
 */
export class RelayedApprovals {
  private readonly waiting = new Map<string, Agent[]>();

  /** Notes that `child` waits for a decision on `callId`. */
  add(callId: string, child: Agent): void {
    const children = this.waiting.get(callId);
    if (children === undefined) this.waiting.set(callId, [child]);
    else children.push(child);
  }

  /**
   * Hands each id not in `taken` to the sub-agent that asked about it first (one whose run has
   * ended since is forgotten), which then no longer waits for it here; returns the ids a
   * sub-agent took at once.
   */
  forward(
    ids: readonly string[],
    taken: readonly string[],
    decide: (child: Agent, callId: string) => string[],
  ): string[] {
    const forwarded: string[] = [];
    for (const callId of ids) {
      const children = this.waiting.get(callId);
      if (children === undefined || taken.includes(callId)) continue;
      while (children.length > 0 && children[0]?.state === undefined) children.shift();
      const child = children[0];
      if (child !== undefined) {
        // The decision is the child's now, also when it is queued for the end of its step.
        const decided = decide(child, callId).includes(callId);
        children.shift();
        if (decided) forwarded.push(callId);
      }
      if (children.length === 0) this.waiting.delete(callId);
    }
    return forwarded;
  }

  /** Forgets every request (the run ended). */
  clear(): void {
    this.waiting.clear();
  }
}
