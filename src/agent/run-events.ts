import type { AgentEvent } from '../core/agent-event.js';
import type { AsyncQueue } from './async-queue.js';

const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

/**
 * The event stream `Agent.run()` returns: it hands out the run's queued events and ends once the
 * run is closed. It behaves as the `async function*` it replaces (leaving a `for await` early
 * stops the run; the loop ends only after the run has released the agent), but costs one
 * promise per event where the generator, reading the queue with its own `for await`, cost
 * about six: at a thousand concurrent runs that was a tenth of the harness's wall time
 * (docs/performance.md).
 */
export class RunEvents implements AsyncGenerator<AgentEvent, void, undefined> {
  readonly #queue: AsyncQueue<AgentEvent>;
  readonly #close: (reason: string) => Promise<void>;
  #stopped = false;

  /**
   * @param queue the run's events; the agent closes it when the run has ended and released the agent.
   * @param close ends the run (aborting it with `reason` if it is still going) and closes the queue.
   */
  constructor(queue: AsyncQueue<AgentEvent>, close: (reason: string) => Promise<void>) {
    this.#queue = queue;
    this.#close = close;
  }

  /** The next event, or the end once the run has closed (or the reader stopped). */
  next(): Promise<IteratorResult<AgentEvent, void>> {
    return this.#stopped ? Promise.resolve(DONE) : this.#queue.take();
  }

  /** Stops reading: ends the run if it is still going and resolves once it has released the agent. */
  async return(value?: void | PromiseLike<void>): Promise<IteratorReturnResult<void>> {
    await this.#stop();
    return { value: await value, done: true };
  }

  /** Ends the run as {@link RunEvents.return} does, then rejects with `error`. */
  async throw(error: unknown): Promise<never> {
    await this.#stop();
    throw error;
  }

  #stop(): Promise<void> {
    this.#stopped = true;
    this.#queue.stopPacing();
    return this.#close('the caller stopped reading the run');
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** As an async generator's. */
  readonly [Symbol.toStringTag] = 'AsyncGenerator';
}
