/**
 * The face of `events/` (row 4): the `EventBus`, the stream that is also the journal.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type {
  DeliveryGate,
  EventBusOptions,
  StreamRecord,
  Subscriber,
  SubscriberErrorHandler,
  Unsubscribe,
} from './event-bus.js';
export { DEFAULT_STOP_GRACE_MS, EventBus, isDelivered } from './event-bus.js';
export { SubscriberTimeoutError } from './subscriber-timeout-error.js';
