import { flagValue, wholeNumber } from './options.js';

/** What the Restate section of `bench:scale` was asked for. */
export interface RestateScaleOptions {
  /** Runs measured per worker count (after a warm-up of as many as are in flight). */
  readonly runs: number;
  /** Runs kept in flight per worker process: the total in flight is this × the workers. */
  readonly inFlightPerWorker: number;
  /** The worker counts to measure, one configuration each, in order. */
  readonly workers: readonly number[];
  /** Sequential `ctx.run` steps per invocation of the bare service. */
  readonly bareSteps: number;
}

/** 1, 2 and 4 workers, 50 runs in flight per worker, 2,000 runs each. */
export const DEFAULT_RESTATE_OPTIONS: RestateScaleOptions = {
  runs: 2000,
  inFlightPerWorker: 50,
  workers: [1, 2, 4],
  bareSteps: 20,
};

/**
 * Reads `--restate-runs N`, `--restate-in-flight N` (per worker), `--restate-workers 1,2,4` and
 * `--restate-bare-steps K`, in `--name N` or `--name=N` form; the rest default to
 * {@link DEFAULT_RESTATE_OPTIONS}.
 */
export function parseRestateOptions(args: readonly string[]): RestateScaleOptions {
  const number = (name: string, fallback: number): number => {
    const text = flagValue(args, name);
    return text === undefined ? fallback : wholeNumber(name, text, 1);
  };
  const list = flagValue(args, 'restate-workers');
  return {
    runs: number('restate-runs', DEFAULT_RESTATE_OPTIONS.runs),
    inFlightPerWorker: number('restate-in-flight', DEFAULT_RESTATE_OPTIONS.inFlightPerWorker),
    workers:
      list === undefined
        ? DEFAULT_RESTATE_OPTIONS.workers
        : list.split(',').map((item) => wholeNumber('restate-workers', item.trim(), 1)),
    bareSteps: number('restate-bare-steps', DEFAULT_RESTATE_OPTIONS.bareSteps),
  };
}
