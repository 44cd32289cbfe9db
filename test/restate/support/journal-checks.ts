import { expect } from 'vitest';
import type { JournalEntry } from '../../../src/core/journal-entry.js';
import { Session } from '../../../src/session/session.js';
import { openStore } from '../../../src/stores/open-store.js';
import { assertLoopInvariants } from '../../../src/testing/index.js';

/** The stored journal of `sessionId` (read with `Session.load`, as `inspect` does). */
export async function storedJournal(storeUrl: string, sessionId: string): Promise<readonly JournalEntry[]> {
  const store = await openStore(storeUrl);
  try {
    const session = await Session.load(store, sessionId, { lockWaitMs: 20_000 });
    const journal = session.journal;
    await session.close();
    return journal;
  } finally {
    await store.close();
  }
}

/**
 * Checks a finished session: the loop's invariants hold, and each `effect` call (tagged `tag`)
 * took effect at most once, and exactly once unless its result says it was in doubt.
 */
export function checkEffects(journal: readonly JournalEntry[], tag: string, effectLines: readonly string[]): void {
  assertLoopInvariants(journal);
  const calls = journal.flatMap((entry) =>
    entry.type === 'assistant_message' ? (entry.toolCalls ?? []).filter((call) => call.name === 'effect') : [],
  );
  for (const call of calls) {
    const n = (call.arguments as { n: number }).n;
    const starts = effectLines.filter((line) => line.startsWith(`start ${tag} ${n} `));
    const result = journal.find((entry) => entry.type === 'tool_result' && entry.callId === call.callId);
    const inDoubt = result?.type === 'tool_result' && String(result.content).startsWith('Error: interrupted');
    expect(starts.length, `effect ${n} of ${tag}: ${starts.join(', ')}`).toBeLessThanOrEqual(1);
    if (!inDoubt) expect(starts.length, `effect ${n} of ${tag} ran once`).toBe(1);
  }
}
