import { type Observable, Subject } from 'rxjs';
import type { AgentEvent } from '../core/agent-event.js';
import { isPromiseLike } from '../core/promise-like.js';
import type { TransitionEntry } from '../session/journal-entry.js';

/** A function that receives every {@link AgentEvent}; it may be async. */
export type Subscriber = (event: AgentEvent) => void | Promise<void>;

/** One item of an agent's stream: a machine transition or a lifecycle event. */
export interface StreamRecord {
  /** Position in the stream, from 0, without gaps. */
  readonly seq: number;
  /** Milliseconds since the bus was created, from the injected clock. */
  readonly at: number;
  /** The transition or event itself. */
  readonly entry: TransitionEntry | AgentEvent;
}

/** Removes a subscriber: call it, or call its `unsubscribe()` (the RxJS habit). */
export type Unsubscribe = (() => void) & { readonly unsubscribe: () => void };

/** Called when a subscriber throws or rejects; the default logs to `console.error`. */
export type SubscriberErrorHandler = (error: unknown, event: AgentEvent) => void;

/** Options of {@link EventBus}. */
export interface EventBusOptions {
  /** Receives subscriber failures (they never reach the loop). */
  readonly onSubscriberError?: SubscriberErrorHandler;
  /** Clock for {@link StreamRecord.at}; defaults to `performance.now`. */
  readonly now?: () => number;
}

interface Pending {
  readonly event: AgentEvent;
  readonly resolve: () => void;
  readonly onDelivered: (() => void) | undefined;
}

const logSubscriberError: SubscriberErrorHandler = (error, event) => {
  console.error(`[agent-harness] a subscriber failed on '${event.type}':`, error);
};

/** What `emit` returns when every subscriber handled the event synchronously. */
const DELIVERED: Promise<void> = Promise.resolve();

/**
 * Whether `emitted` (what {@link EventBus.emit} or {@link EventBus.idle} returned) says the
 * event already reached every subscriber, so that the caller may go on without awaiting it.
 */
export function isDelivered(emitted: Promise<void>): boolean {
  return emitted === DELIVERED;
}

/**
 * The agent's event bus, built on one RxJS stream.
 *
 * `stream$` carries every transition and every event, synchronously, in order.
 * `subscribe` callbacks receive the lifecycle events in subscription order, each awaited before
 * the next: a slow subscriber applies backpressure (the loop awaits delivery before it asks the
 * model again) and never reorders events; a failing one is reported and contained.
 */
export class EventBus {
  /** Every transition and event, in order. Hot: late subscribers see only what follows. */
  readonly stream$: Observable<StreamRecord>;
  private readonly subject = new Subject<StreamRecord>();
  // Replaced, never mutated: a delivery in progress keeps the list it started with, so
  // subscribing or unsubscribing during delivery affects the next event only.
  private subscribers: readonly Subscriber[] = [];
  private readonly queue: Pending[] = [];
  /** An event is being delivered; later ones wait in `queue`. */
  private delivering = false;
  private seq = 0;
  private readonly onSubscriberError: SubscriberErrorHandler;
  private readonly now: () => number;
  private readonly origin: number;

  constructor(options: EventBusOptions = {}) {
    this.stream$ = this.subject.asObservable();
    this.onSubscriberError = options.onSubscriberError ?? logSubscriberError;
    this.now = options.now ?? (() => performance.now());
    this.origin = this.now();
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
   * Publishes an event: on `stream$` at once, then to each subscriber in turn.
   * Resolves when every subscriber has handled it. Never rejects.
   * `onDelivered`, if given, is called at that moment, synchronously, before any event queued
   * behind this one is delivered (the promise's callbacks run a microtask later); it should not
   * throw (if it does, the error is reported as a subscriber's).
   * Do not await `emit` from inside a subscriber: it would wait for itself.
   */
  emit(event: AgentEvent, onDelivered?: () => void): Promise<void> {
    this.publish(event);
    if (this.delivering) return this.enqueue(event, onDelivered);
    // Nothing ahead of it: deliver now, and go asynchronous only when a subscriber is.
    this.delivering = true;
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) {
      const pending = this.call(subscribers[i] as Subscriber, event);
      if (pending !== undefined) {
        const from = i + 1;
        return new Promise<void>((resolve) => {
          void this.finishAsync(pending, event, subscribers, from, onDelivered, resolve);
        });
      }
    }
    if (onDelivered !== undefined) this.runDelivered(onDelivered, event);
    if (this.queue.length > 0) {
      void this.drain(); // a subscriber emitted while it ran; this event is delivered all the same
      return DELIVERED;
    }
    this.delivering = false;
    return DELIVERED;
  }

  /** Publishes a machine transition on `stream$` (subscribers receive only lifecycle events). */
  record(transition: TransitionEntry): void {
    this.publish(transition);
  }

  /** Resolves once every event emitted so far has reached every subscriber. */
  idle(): Promise<void> {
    if (!this.delivering) return DELIVERED;
    return this.enqueue(IDLE_MARKER);
  }

  private publish(entry: TransitionEntry | AgentEvent): void {
    const seq = this.seq++;
    // Nobody listening: no record to build and no clock to read. `seq` still counts every
    // record, so a late subscriber sees the positions an early one would.
    if (this.subject.observed) this.subject.next({ seq, at: this.now() - this.origin, entry });
  }

  private enqueue(event: AgentEvent, onDelivered?: () => void): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push({ event, resolve, onDelivered });
    });
  }

  /** An event reached every subscriber: its emitter's callback, then its promise. */
  private delivered(event: AgentEvent, onDelivered: (() => void) | undefined, resolve: () => void): void {
    if (onDelivered !== undefined) this.runDelivered(onDelivered, event);
    resolve();
  }

  private runDelivered(onDelivered: () => void, event: AgentEvent): void {
    try {
      onDelivered();
    } catch (error) {
      this.reportSubscriberError(error, event);
    }
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
   * Awaits an asynchronous subscriber, delivers to the rest, calls the emitter back and resolves
   * its `emit`, then delivers whatever queued meanwhile.
   */
  private async finishAsync(
    pending: PromiseLike<void>,
    event: AgentEvent,
    subscribers: readonly Subscriber[],
    next: number,
    onDelivered: (() => void) | undefined,
    resolve: () => void,
  ): Promise<void> {
    await this.settle(pending, event);
    for (let i = next; i < subscribers.length; i++) {
      const more = this.call(subscribers[i] as Subscriber, event);
      if (more !== undefined) await this.settle(more, event);
    }
    // The emitter goes on before the events queued behind this one are delivered (as in
    // `drain`): a tool whose announcement was delivered starts before a reader sees the next
    // event. `emit` resolves now, not once those are delivered (`idle()` waits for them).
    this.delivered(event, onDelivered, resolve);
    void this.drain();
  }

  /**
   * Delivers the queued events in order; ends with `delivering` false. Awaits only subscribers
   * that return a promise, so an event all subscribers take synchronously is followed at once
   * by its `onDelivered`, before anything else runs.
   */
  private async drain(): Promise<void> {
    let pending = this.queue.shift();
    while (pending !== undefined) {
      const { event } = pending;
      if (event !== IDLE_MARKER) {
        const subscribers = this.subscribers;
        for (let i = 0; i < subscribers.length; i++) {
          const result = this.call(subscribers[i] as Subscriber, event);
          if (result !== undefined) await this.settle(result, event);
        }
      }
      this.delivered(event, pending.onDelivered, pending.resolve);
      pending = this.queue.shift();
    }
    this.delivering = false;
  }

  private async settle(pending: PromiseLike<void>, event: AgentEvent): Promise<void> {
    try {
      await pending;
    } catch (error) {
      this.reportSubscriberError(error, event);
    }
  }

  private reportSubscriberError(error: unknown, event: AgentEvent): void {
    try {
      this.onSubscriberError(error, event);
    } catch {
      // The error handler itself failed; there is nowhere left to report it.
    }
  }
}

/** A queue item that only marks a point to wait for (see {@link EventBus.idle}). */
const IDLE_MARKER = { type: 'text_delta', data: { content: '' } } as AgentEvent;
