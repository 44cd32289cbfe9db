import type { Message, ModelClient, StreamEvent } from '../src/index.js';
import { TurnScript } from './workload.js';

/**
 * The lean scripted model, except that request `holdAt` of every run waits until `open()`:
 * it holds many sessions mid-run so that their live heap can be measured.
 */
export class GatedClient implements ModelClient {
  /** Runs waiting at the gate. */
  waiting = 0;
  private readonly script = new TurnScript();
  private release: () => void = () => {};
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  /**
   * @param toolTurns how many turns ask for a tool before the final answer
   * @param holdAt the 1-based request that waits for the gate
   */
  constructor(
    private readonly toolTurns: number,
    private readonly holdAt: number,
  ) {}

  /** Lets every waiting and future request through. */
  open(): void {
    this.release();
  }

  async *chatCompletion(messages: readonly Message[]): AsyncGenerator<StreamEvent> {
    const step = (messages.length - 1) / 2 + 1;
    if (step === this.holdAt) {
      this.waiting++;
      await this.gate;
    }
    yield* this.script.eventsFor(step, this.toolTurns);
  }
}
