import { formatCassetteReport } from './divergence.js';
import type { CassetteInput } from './load-cassette.js';
import { type MakeAgent, type ReplayOptions, replayCassette } from './replay-cassette.js';

/**
 * Replays a cassette and throws an `Error` whose message is the divergence report when the run
 * does not match: `await expectCassette('runs/fix.cassette.jsonl', makeAgent)` in any test
 * runner (vitest, node:test, …).
 */
export async function expectCassette(
  cassette: CassetteInput,
  makeAgent: MakeAgent,
  options: Omit<ReplayOptions, 'makeAgent' | 'agent'> = {},
): Promise<void> {
  const report = await replayCassette(cassette, { ...options, makeAgent });
  if (!report.ok) throw new Error(formatCassetteReport(report));
}
