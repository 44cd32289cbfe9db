import { CONTRACT_SHAPE, skeletonRunner } from '../skeleton-machine.js';
import { latencyMs, sleep } from './latency.js';
import type { ScaleContender, ScaleWorkload } from './scale-workload.js';

/**
 * The XState skeleton of the agent machine (`bench/skeleton-machine.ts`, the contract's shape:
 * the same states, a spawned actor per tool call, the named effects as no-ops) on the scale
 * workload: each model request waits the paced latency, then answers whole (no deltas, no
 * journal, events or messages). It is what the machine the brief requires costs at N in flight,
 * before any of the harness's work.
 */
export function skeletonScaleContender(workload: ScaleWorkload): ScaleContender {
  const pace = (session: number, turn: number): Promise<void> => sleep(latencyMs(workload.latency, session, turn));
  const runOnce = skeletonRunner(CONTRACT_SHAPE, workload.toolTurns, pace);
  const name = 'XState skeleton';
  return {
    name,
    async run(session) {
      const turns = (await runOnce(session)) + 1;
      if (turns !== workload.toolTurns + 1) {
        throw new Error(`${name}: expected ${workload.toolTurns + 1} turns, counted ${turns}`);
      }
      return turns;
    },
  };
}
