import type { Agent } from './agent.js';

/**
 * The sub-agents' calls an agent's approver was asked about (`tool_approval_request` with a
 * `path`), by call id: a decision given to the agent that no call of its own takes goes on to
 * the sub-agent that asked (which may pass it further down).
 */
export class RelayedApprovals {
  private readonly waiting = new Map<string, Agent>();

  /** Notes that `child` waits for a decision on `callId`. */
  add(callId: string, child: Agent): void {
    this.waiting.set(callId, child);
  }

  /** Hands each id not in `taken` to the sub-agent that asked about it; returns the ids a sub-agent took. */
  forward(
    ids: readonly string[],
    taken: readonly string[],
    decide: (child: Agent, callId: string) => string[],
  ): string[] {
    const forwarded: string[] = [];
    for (const callId of ids) {
      const child = this.waiting.get(callId);
      if (child === undefined || taken.includes(callId)) continue;
      if (decide(child, callId).includes(callId)) {
        this.waiting.delete(callId);
        forwarded.push(callId);
      }
    }
    return forwarded;
  }

  /** Forgets every request (the run ended). */
  clear(): void {
    this.waiting.clear();
  }
}
