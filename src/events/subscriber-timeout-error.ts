import { HarnessError } from '../core/errors.js';

/**
 * A subscriber held one event longer than the bus's stop grace while a run was stopping; the bus
 * delivered on without it (see `EventBusOptions.stopGraceMs`). Reported to `onSubscriberError`.
 */
export class SubscriberTimeoutError extends HarnessError {
  /** The type of the event the subscriber was holding. */
  readonly eventType: string;

  constructor(eventType: string, graceMs: number) {
    super(
      'subscriber_timeout',
      `a subscriber held '${eventType}' for more than ${graceMs} ms while the run was stopping; delivered on without it`,
    );
    this.eventType = eventType;
  }
}
