import { type Observable, Subject } from 'rxjs';
import type { AgentEvent } from '../core/agent-event.js';
import { HarnessError } from '../core/errors.js';
import { monotonicNow } from '../core/monotonic-now.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { JournalEntry } from '../session/journal-entry.js';
import { SubscriberTimeoutError } from './subscriber-timeout-error.js';

/** A function that receives every {@link AgentEvent}; it may be async. */
export type Subscriber = (event: AgentEvent) => void | Promise<void>;

/** One item of an agent's stream: a journal entry as it is appended, or a lifecycle event. */
export interface StreamRecord {
  /** Position in the stream, from 0, without gaps. */
  readonly seq: number;
  /** Milliseconds since the bus was created, from the injected clock. */
  readonly at: number;
  /** The journal entry or the event itself. */
  readonly entry: JournalEntry | AgentEvent;
  /** Present exactly when `entry` is a journal entry: its index in `session.journal`. */
  readonly journalIndex?: number;
}

/** Removes a subscriber: call it, or call its `unsubscribe()` (the RxJS habit). */
export type Unsubscribe = (() => void) & { readonly unsubscribe: () => void };

/** Called when a subscriber throws, rejects or times out; the default logs to `console.error`. */
export type SubscriberErrorHandler = (error: unknown, event: AgentEvent) => void;

/** Options of {@link EventBus}. */
export interface EventBusOptions {
  /** Receives subscriber failures (they never reach the loop). */
  readonly onSubscriberError?: SubscriberErrorHandler;
  /** Clock for {@link StreamRecord.at}; defaults to `performance.now`. */
  readonly now?: () => number;
  /**
   * While a run is stopping (an abort or a budget stop), how long one subscriber may hold one
   * event before the bus gives up on it for that event (reported as a
   * {@link SubscriberTimeoutError}) and delivers on. Default 1000 ms.
   */
  readonly stopGraceMs?: number;
}

/** What `emit` returns for an event every subscriber took synchronously. */
const RESOLVED: Promise<void> = Promise.resolve();

/** Default of {@link EventBusOptions.stopGraceMs}. */
export const DEFAULT_STOP_GRACE_MS = 1000;

interface Pending {
  readonly event: AgentEvent;
  readonly resolve: () => void;
}

const logSubscriberError: SubscriberErrorHandler = (error, event) => {
  console.error(`[agent-harness] a subscriber failed on '${event.type}':`, error);
};

/**
 * The agent's event bus, built on one RxJS stream.
 *
 * `stream$` carries every journal entry as it is appended and every lifecycle event,
 * synchronously, in order. `subscribe` callbacks receive the lifecycle events one at a time, in
 * subscription order, each awaited before the next: a slow subscriber applies backpressure (the
 * loop waits for the bus to be idle before it asks the model again or starts the next tool) and
 * never reorders events; a failing one is reported and contained.
 */
export class EventBus {
  /** Every journal entry and event, in order. Hot: late subscribers see only what follows. */
  readonly stream$: Observable<StreamRecord>;
  private readonly subject = new Subject<StreamRecord>();
  // Replaced, never mutated: a delivery in progress keeps the list it started with, so
  // subscribing or unsubscribing during delivery affects the next event only.
  private subscribers: readonly Subscriber[] = [];
  private readonly queue: Pending[] = [];
  private idleWaiters: (() => void)[] = [];
  /** An event is being delivered; later ones wait in `queue`. */
  private delivering = false;
  /** Set while a run stops: a subscriber may hold an event for `stopGraceMs` at most. */
  private hurrying = false;
  /** Starts the grace clock of the subscriber that holds the event being delivered, if one does. */
  private holder: (() => void) | undefined;
  /**
   * Subscribers given up on (timed out) whose held event has not settled yet: while the bus
   * hurries, later events reach them without being waited for, so a stop is held back by one
   * grace period per stuck subscriber, not one per event.
   */
  private stuck: Set<Subscriber> | undefined;
  private seq = 0;
  private readonly onSubscriberError: SubscriberErrorHandler;
  private readonly now: () => number;
  private readonly origin: number;
  private readonly stopGraceMs: number;

  constructor(options: EventBusOptions = {}) {
    checkBusOptions(options);
    this.stream$ = this.subject.asObservable();
    this.onSubscriberError = options.onSubscriberError ?? logSubscriberError;
    this.now = options.now ?? monotonicNow;
    this.origin = this.now();
    this.stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  }

  /** Adds a subscriber; returns the function that removes it (also callable as `.unsubscribe()`). */
  subscribe(subscriber: Subscriber): Unsubscribe {
    this.subscribers = [...this.subscribers, subscriber];
    const unsubscribe = (): void => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers = this.subscribers.filter((_, i) => i !== index);
    };
    return Object.assign(unsubscribe, { unsubscribe });
  }

  /**
   * Publishes an event: on `stream$` at once, then to each subscriber in turn, after every event
   * emitted before it. Resolves when every subscriber has handled it. Never rejects.
   * Do not await `emit` from inside a subscriber: it would wait for itself.
   */
  emit(event: AgentEvent): Promise<void> {
    this.publish(event, undefined);
    if (this.delivering) {
      return new Promise<void>((resolve) => {
        this.queue.push({ event, resolve });
      });
    }
    // Nothing ahead of it: deliver on the spot, with no promise while every subscriber is synchronous.
    this.delivering = true;
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) {
      const result = this.call(subscribers[i] as Subscriber, event);
      if (result !== undefined) {
        return new Promise<void>((resolve) => {
          void this.finishAsync(result, { event, resolve }, subscribers, i);
        });
      }
    }
    this.drain(); // delivers whatever a subscriber emitted meanwhile, then becomes idle
    return RESOLVED;
  }

  /** Publishes a journal entry on `stream$` (subscribers receive only lifecycle events). */
  record(entry: JournalEntry, journalIndex: number): void {
    this.publish(entry, journalIndex);
  }

  /** True when every event emitted so far has reached every subscriber. */
  get isIdle(): boolean {
    return !this.delivering;
  }

  /** Resolves once every event emitted so far has reached every subscriber. */
  idle(): Promise<void> {
    if (!this.delivering) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
    });
  }

  /**
   * A run is stopping: until the bus is next idle, give each subscriber at most `stopGraceMs`
   * per event (see {@link EventBusOptions.stopGraceMs}), so a stuck subscriber cannot hold the
   * end of a run back.
   */
  hurry(): void {
    if (!this.delivering) return;
    this.hurrying = true;
    this.holder?.();
  }

  private publish(entry: JournalEntry | AgentEvent, journalIndex: number | undefined): void {
    const seq = this.seq++;
    // Nobody listening: no record to build and no clock to read. `seq` still counts every
    // record, so a late subscriber sees the positions an early one would.
    if (!this.subject.observed) return;
    const at = this.now() - this.origin;
    this.subject.next(journalIndex === undefined ? { seq, at, entry } : { seq, at, entry, journalIndex });
  }

  /**
   * Delivers the queued events in order, synchronously while subscribers are, and ends with
   * `delivering` false. Each event's `emit` resolves as it reaches the last subscriber.
   */
  private drain(): void {
    this.delivering = true;
    for (let pending = this.queue.shift(); pending !== undefined; pending = this.queue.shift()) {
      const subscribers = this.subscribers;
      for (let i = 0; i < subscribers.length; i++) {
        const result = this.call(subscribers[i] as Subscriber, pending.event);
        if (result !== undefined) {
          void this.finishAsync(result, pending, subscribers, i);
          return;
        }
      }
      pending.resolve();
    }
    this.becomeIdle();
  }

  /** Awaits subscriber `at`'s answer, delivers to the rest, then drains what queued meanwhile. */
  private async finishAsync(
    first: PromiseLike<void>,
    pending: Pending,
    subscribers: readonly Subscriber[],
    at: number,
  ): Promise<void> {
    await this.settle(first, pending.event, subscribers[at] as Subscriber);
    for (let i = at + 1; i < subscribers.length; i++) {
      const subscriber = subscribers[i] as Subscriber;
      const more = this.call(subscriber, pending.event);
      if (more !== undefined) await this.settle(more, pending.event, subscriber);
    }
    pending.resolve();
    this.drain();
  }

  private becomeIdle(): void {
    this.delivering = false;
    this.hurrying = false;
    if (this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Calls one subscriber; returns its promise when it is asynchronous. */
  private call(subscriber: Subscriber, event: AgentEvent): PromiseLike<void> | undefined {
    try {
      const result = subscriber(event);
      return isPromiseLike(result) ? result : undefined;
    } catch (error) {
      this.reportSubscriberError(error, event);
      return undefined;
    }
  }

  /**
   * Waits for one subscriber: for ever, or for `stopGraceMs` once the bus hurries (from the
   * moment it does, if this subscriber is already holding the event then).
   */
  private settle(pending: PromiseLike<void>, event: AgentEvent, subscriber: Subscriber): Promise<void> {
    if (this.hurrying && this.stuck?.has(subscriber)) {
      // Still holding an earlier event it was given up on: not waited for again in this stop.
      Promise.resolve(pending).then(undefined, (error: unknown) => this.reportSubscriberError(error, event));
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        if (this.holder !== startClock) return; // already given up on
        this.holder = undefined;
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      };
      const startClock = (): void => {
        timer ??= setTimeout(() => {
          this.reportSubscriberError(new SubscriberTimeoutError(event.type, this.stopGraceMs), event);
          this.stuck ??= new Set();
          const stuck = this.stuck;
          stuck.add(subscriber);
          const unstuck = (): void => {
            stuck.delete(subscriber);
          };
          Promise.resolve(pending).then(unstuck, unstuck);
          finish();
        }, this.stopGraceMs);
      };
      this.holder = startClock;
      Promise.resolve(pending).then(finish, (error: unknown) => {
        if (this.holder === startClock) this.reportSubscriberError(error, event);
        finish();
      });
      if (this.hurrying) startClock();
    });
  }

  private reportSubscriberError(error: unknown, event: AgentEvent): void {
    try {
      this.onSubscriberError(error, event);
    } catch {
      // The error handler itself failed; there is nowhere left to report it.
    }
  }
}

function checkBusOptions(options: unknown): asserts options is EventBusOptions {
  if (typeof options !== 'object' || options === null)
    throw new HarnessError(
      'invalid_argument',
      `EventBus options must be an object, got ${options === null ? 'null' : typeof options}`,
    );
  const { onSubscriberError, now, stopGraceMs } = options as Record<string, unknown>;
  if (onSubscriberError !== undefined && typeof onSubscriberError !== 'function')
    throw new HarnessError('invalid_argument', 'EventBus options.onSubscriberError must be a function');
  if (now !== undefined && typeof now !== 'function')
    throw new HarnessError('invalid_argument', 'EventBus options.now must be a function returning milliseconds');
  if (
    stopGraceMs !== undefined &&
    (typeof stopGraceMs !== 'number' || !(stopGraceMs >= 0) || !Number.isFinite(stopGraceMs))
  )
    throw new HarnessError(
      'invalid_argument',
      `EventBus options.stopGraceMs must be a finite number ≥ 0, got ${String(stopGraceMs)}`,
    );
}
