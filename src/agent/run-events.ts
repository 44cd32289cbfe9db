import type { AgentEvent } from '../core/agent-event.js';
import type { AsyncQueue } from './async-queue.js';

const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

/**
 * The event stream `Agent.run()` returns: it hands out the run's queued events and ends once the
 * run is closed. It behaves as the `async function*` it replaces (leaving a `for await` early
 * stops the run; the loop ends only after the run has released the agent), but makes fewer
 * promises per event than the generator, which read the queue with its own `for await`
 * (see `bench/cases/concurrency.ts`).
 */
export class RunEvents implements AsyncGenerator<AgentEvent, void, undefined> {
  readonly #queue: AsyncQueue<AgentEvent>;
  readonly #close: (reason: string) => Promise<void>;
  /** Set once the reader stopped: resolves when the run has released the agent. */
  #stopped: Promise<void> | undefined;

  /**
   * @param queue the run's events; the agent closes it when the run has ended and released the agent.
   * @param close ends the run (aborting it with `reason` if it is still going) and closes the queue.
   */
  constructor(queue: AsyncQueue<AgentEvent>, close: (reason: string) => Promise<void>) {
    this.#queue = queue;
    this.#close = close;
  }

  /**
   * The next event, or the end once the run has closed. After `return()` or `throw()`, the end,
   * once the run has released the agent (as a generator's `next()` waits behind its `return()`).
   */
  next(): Promise<IteratorResult<AgentEvent, void>> {
    return this.#stopped === undefined ? this.#queue.take() : this.#stopped.then(() => DONE);
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
    if (this.#stopped === undefined) {
      // Abort first (`close` does it at once), then let the held steps go: a call still waiting
      // to be announced then finds the run aborted and never starts.
      this.#stopped = this.#close('the caller stopped reading the run');
      this.#queue.stopPacing();
    }
    return this.#stopped;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** As an async generator's. */
  readonly [Symbol.toStringTag] = 'AsyncGenerator';
}
