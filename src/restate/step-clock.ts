/**
 * The time of a run executed on Restate: the wall-clock time each durable step recorded when
 * it finished, so that a run executed again after a crash sees the same elapsed times (and
 * takes the same budget decisions) as the first execution. Between steps it stands still.
 */
export class StepClock {
  #now: number;

  constructor(start: number) {
    this.#now = start;
  }

  /** The time the last step finished, in ms since the epoch. */
  readonly now = (): number => this.#now;

  /** Moves the clock to a step's recorded end (never backwards). */
  observe(at: number): void {
    if (at > this.#now) this.#now = at;
  }
}

/**
 * The machine's timer clock on Restate: its timers never fire. The wall-clock budget is then
 * checked at each step boundary with {@link StepClock} time instead of cutting a request short
 * at a moment a re-execution could not reproduce.
 */
export const STEP_BOUNDARY_TIMERS = {
  setTimeout: (): unknown => undefined,
  clearTimeout: (): void => {},
};
