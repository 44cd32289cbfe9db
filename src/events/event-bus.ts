import { type Observable, Subject } from 'rxjs';
import type { AgentEvent } from '../core/agent-event.js';
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
}

const logSubscriberError: SubscriberErrorHandler = (error, event) => {
  console.error(`[agent-harness] a subscriber failed on '${event.type}':`, error);
};

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
  private readonly subscribers: Subscriber[] = [];
  private readonly queue: Pending[] = [];
  private draining = false;
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
    this.subscribers.push(subscriber);
    const unsubscribe = (): void => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
    return Object.assign(unsubscribe, { unsubscribe });
  }

  /**
   * Publishes an event: on `stream$` at once, then to each subscriber in turn.
   * Resolves when every subscriber has handled it. Never rejects.
   * Do not await `emit` from inside a subscriber: it would wait for itself.
   */
  emit(event: AgentEvent): Promise<void> {
    this.publish(event);
    return new Promise<void>((resolve) => {
      this.queue.push({ event, resolve });
      if (!this.draining) void this.drain();
    });
  }

  /** Publishes a machine transition on `stream$` (subscribers receive only lifecycle events). */
  record(transition: TransitionEntry): void {
    this.publish(transition);
  }

  /** Resolves once every event emitted so far has reached every subscriber. */
  idle(): Promise<void> {
    if (!this.draining && this.queue.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.queue.push({ event: IDLE_MARKER, resolve });
    });
  }

  private publish(entry: TransitionEntry | AgentEvent): void {
    this.subject.next({ seq: this.seq++, at: this.now() - this.origin, entry });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    let pending = this.queue.shift();
    while (pending !== undefined) {
      if (pending.event !== IDLE_MARKER) await this.deliver(pending.event);
      pending.resolve();
      pending = this.queue.shift();
    }
    this.draining = false;
  }

  private async deliver(event: AgentEvent): Promise<void> {
    // A copy, so that subscribing or unsubscribing during delivery affects the next event only.
    for (const subscriber of this.subscribers.slice()) {
      try {
        const result = subscriber(event);
        if (result !== undefined && typeof (result as Promise<void>).then === 'function') await result;
      } catch (error) {
        this.reportSubscriberError(error, event);
      }
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
