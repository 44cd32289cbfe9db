import type { Message, ModelClient, StreamEvent } from '../../src/index.js';
import { type LatencyModel, latencyMs, sleep } from './latency.js';
import { type ScaleScript, stepOfLength } from './scale-workload.js';

/**
 * The scripted model of one session: waits the latency model's time for the turn, then streams
 * the turn's prebuilt events. It never copies the messages; its only state is the session number.
 */
export class PacedClient implements ModelClient {
  constructor(
    private readonly script: ScaleScript,
    private readonly latency: LatencyModel,
    private readonly session: number,
  ) {}

  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    const step = stepOfLength(messages.length);
    await sleep(latencyMs(this.latency, this.session, step));
    yield* this.script.eventsFor(step);
  }
}
