import { CancelledError, type Context, RestatePromise } from '@restatedev/restate-sdk';
import { HarnessError } from '../core/errors.js';
import type { StepClock } from './step-clock.js';

/** What every step records besides its value: which step it was and when it finished. */
export interface StepRecord<T> {
  /** The step's name (`#3 tool call_1`): a re-execution that asks for another step has diverged. */
  readonly step: string;
  /** When the step finished, in ms since the epoch (see {@link StepClock}). */
  readonly at: number;
  /** What the step produced. */
  readonly value: T;
}

/** How long one durable step took, for metrics (`AgentObjectOptions.onStep`). */
export interface StepTiming {
  /** The step's name (`#3 tool call_1`). */
  readonly step: string;
  /** From asking for the step to having its recorded value, in ms. */
  readonly ms: number;
  /** How long its action ran in this execution, in ms; absent when its value was recorded before. */
  readonly actionMs?: number;
}

/** One promise waited on, with how to hand its outcome to its caller. */
interface Waiting {
  readonly promise: RestatePromise<unknown>;
  settle(value: unknown, failure: unknown): void;
}

/** How an execution of a run ends early, as far as the steps can tell. */
export interface StepsListener {
  /** The invocation was cancelled through Restate. */
  cancelled(): void;
  /** This execution cannot go on (suspended, its connection lost): stop without writing. */
  ended(): void;
  /** The recorded step differs from the one the code asks for. */
  diverged(error: HarnessError): void;
}

/**
 * The durable steps of one execution of a run. The Restate SDK lets one consumer wait at a time,
 * while the agent's tool calls wait concurrently: every wait goes through here, and one loop
 * races all of them, handing each outcome to its caller as it comes.
 */
export class DurableSteps {
  readonly #waiting = new Set<Waiting>();
  #driving = false;
  #count = 0;
  #over = false;

  constructor(
    private readonly ctx: Context,
    private readonly clock: StepClock,
    private readonly sessionId: string,
    private readonly listener: StepsListener,
    private readonly onStep?: (timing: StepTiming) => void,
  ) {}

  /**
   * Runs `action` as the next durable step, named `label`, unless a previous execution recorded
   * it: then its recorded value comes back without running it. `action` must not throw for
   * outcomes the run should see (return them as values): a throw is retried by Restate.
   */
  run<T>(label: string, action: () => Promise<T> | T): Promise<T> {
    this.#count += 1;
    const step = `#${this.#count} ${label}`;
    const asked = performance.now();
    let actionMs: number | undefined;
    const recorded = this.ctx.run<StepRecord<T>>(step, async () => {
      const started = performance.now();
      const value = await action();
      actionMs = performance.now() - started;
      return { step, value, at: Date.now() };
    });
    return this.wait(recorded).then((record) => {
      this.onStep?.({ step, ms: performance.now() - asked, ...(actionMs === undefined ? {} : { actionMs }) });
      if (record.step !== step) {
        const error = new HarnessError(
          'invalid_journal',
          `divergence in session '${this.sessionId}' at step ${this.#count}: the run recorded '${record.step}', but this worker's code asks for '${step}'; finish the run with the code that started it, or cancel it`,
        );
        this.listener.diverged(error);
        throw error;
      }
      this.clock.observe(record.at);
      return record.value;
    });
  }

  /** Waits for any other Restate promise (an awakeable) alongside the steps. */
  wait<T>(promise: RestatePromise<T>): Promise<T> {
    if (this.#over) return new Promise<T>(() => {});
    return new Promise<T>((resolve, reject) => {
      this.#waiting.add({
        promise,
        settle: (value, failure) => (failure === undefined ? resolve(value as T) : reject(failure)),
      });
      this.#drive();
    });
  }

  /** Stops waiting: what still waits never settles (the execution is being torn down). */
  stop(): void {
    this.#over = true;
    this.#waiting.clear();
  }

  #drive(): void {
    if (this.#driving) return;
    this.#driving = true;
    // The calls of a batch ask one after another within a few jobs: let them join the first race.
    setImmediate(() => void this.#loop());
  }

  async #loop(): Promise<void> {
    try {
      while (this.#waiting.size > 0 && !this.#over) {
        const members = [...this.#waiting];
        const settled = await RestatePromise.race(
          members.map((member) => member.promise.map((value, failure) => ({ member, value, failure }))),
        );
        this.#waiting.delete(settled.member);
        settled.member.settle(settled.value, settled.failure);
      }
    } catch (error) {
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      if (error instanceof CancelledError) {
        this.listener.cancelled();
        for (const member of waiting) member.settle(undefined, error);
      } else {
        this.stop();
        this.listener.ended();
      }
    } finally {
      this.#driving = false;
    }
    if (this.#waiting.size > 0 && !this.#over) this.#drive();
  }
}
