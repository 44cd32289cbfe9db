import { bareLoop } from '../bare-loop.js';
import { PROMPT } from '../workload.js';
import { PacedClient } from './paced-client.js';
import { expectAnswer, type ScaleContender, ScaleScript, type ScaleWorkload } from './scale-workload.js';

/**
 * The floor on the scale workload: the bench's bare async loop (no events, journal, budgets or
 * machine) with the same paced client per session, so that what no loop can avoid (the timers,
 * the streamed deltas, a session's messages, the garbage collector at N in flight) is measured
 * beside the harness and the peer.
 */
export function bareScaleContender(workload: ScaleWorkload): ScaleContender {
  const script = new ScaleScript(workload);
  return {
    name: 'bare loop',
    async run(session) {
      const client = new PacedClient(script, workload.latency, session);
      const { answer, turns } = await bareLoop(client, PROMPT, workload.toolTurns + 1);
      return expectAnswer(this.name, workload, answer, turns);
    },
  };
}
