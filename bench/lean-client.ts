import type { Message, ModelClient, StreamEvent } from '../src/index.js';
import { TurnScript } from './workload.js';

/**
 * A zero-latency model for the harness: stateless, it reads the step from the context length
 * (user message, then one assistant + one tool message per step) and returns prebuilt events.
 * It never copies the messages, so the benchmark measures the harness, not the fake.
 */
export class LeanClient implements ModelClient {
  private readonly script = new TurnScript();

  /** @param toolTurns how many turns ask for a tool before the final answer */
  constructor(private readonly toolTurns: number) {}

  chatCompletion(messages: readonly Message[]): Iterable<StreamEvent> {
    const step = (messages.length - 1) / 2 + 1;
    return this.script.eventsFor(step, this.toolTurns);
  }
}
