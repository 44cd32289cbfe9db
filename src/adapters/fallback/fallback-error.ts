import { HarnessError } from '../../core/errors.js';
import type { FallbackReason } from './fallback-reason.js';

/** One model's failure in a fallback chain. */
export interface FallbackFailure {
  /** The model (or, when the client names none, its provider or place in the chain). */
  readonly model: string;
  /** Why it was left. */
  readonly reason: FallbackReason;
  /** Its error, one line. */
  readonly message: string;
}

/**
 * Every model of a fallback chain failed: a `model_error` whose message lists each model with
 * its reason and error, in the order they were tried.
 */
export class FallbackError extends HarnessError {
  /** The failures, in the order the models were tried. */
  readonly failures: readonly FallbackFailure[];

  constructor(failures: readonly FallbackFailure[]) {
    const each = failures.map((failure) => `${failure.model} (${failure.reason}: ${failure.message})`);
    super('model_error', `every model of the fallback chain failed: ${each.join('; ')}`);
    this.name = 'FallbackError';
    this.failures = Object.freeze(failures.slice());
  }
}
