import { type Observable, Subject } from 'rxjs';
import type { AgentEvent } from '../core/agent-event.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal-entry.js';
import { monotonicNow } from '../core/monotonic-now.js';
import { isPromiseLike } from '../core/promise-like.js';
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

/**
 * What one subscriber is shown of an event on its way to it: the event, another event in its
 * place, or nothing (`undefined`). See {@link EventBus.gate}.
 */
export type DeliveryGate = (event: AgentEvent, subscriber: Subscriber) => AgentEvent | undefined;

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

/**
 * Whether `emit` returned after every subscriber had its event (they all took it synchronously):
 * then there is nothing to wait for, and an emitter on a hot path (a text delta) skips the
 * microtask an `await` would cost.
 */
export function isDelivered(emitted: Promise<void>): boolean {
  return emitted === RESOLVED;
}

const NO_SUBSCRIBERS: readonly Subscriber[] = [];
const NO_GATES: readonly DeliveryGate[] = [];

/** Default of {@link EventBusOptions.stopGraceMs}. */
export const DEFAULT_STOP_GRACE_MS = 1000;

/** An event waiting behind the one being delivered, with the `emit` promise to resolve once it is (if any). */
interface Pending {
  readonly event: AgentEvent;
  resolve: (() => void) | undefined;
}

/**
 * The subscriber holding the event being delivered, as the bus waits for its promise: the
 * promise's settling resumes delivery unless the bus gave up on the subscriber first.
 */
interface Hold {
  readonly subscriber: Subscriber;
  /** Its position among the subscribers the event is being delivered to. */
  readonly index: number;
  /** Set once the bus hurries: the grace clock. */
  timer: ReturnType<typeof setTimeout> | undefined;
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
  /** Made when `stream$` is first read: most buses (one per agent) are never observed. */
  private subject: Subject<StreamRecord> | undefined;
  private observable: Observable<StreamRecord> | undefined;
  // Replaced, never mutated: a delivery in progress keeps the list it started with, so
  // subscribing or unsubscribing during delivery affects the next event only.
  private subscribers: readonly Subscriber[] = [];
  /** Replaced, never mutated, as `subscribers`. Usually none: one per run of an agent with a store. */
  private gates: readonly DeliveryGate[] = NO_GATES;
  private readonly queue: Pending[] = [];
  private idleWaiters: (() => void)[] = [];
  /** An event is being delivered; later ones wait in `queue`. */
  private delivering = false;
  /** Set while a run stops: a subscriber may hold an event for `stopGraceMs` at most. */
  private hurrying = false;
  /** The event being delivered, while one is. */
  private event: AgentEvent | undefined;
  /** The subscribers `event` goes to: the list as it was when its delivery started. */
  private targets: readonly Subscriber[] = NO_SUBSCRIBERS;
  /** Resolves the `emit` promise of `event`, if its emitter asked for one. */
  private resolveEvent: (() => void) | undefined;
  /** The subscriber holding `event`, if one does. */
  private held: Hold | undefined;
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
    this.onSubscriberError = options.onSubscriberError ?? logSubscriberError;
    this.now = options.now ?? monotonicNow;
    this.origin = this.now();
    this.stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  }

  /** Every journal entry and event, in order. Hot: late subscribers see only what follows. */
  get stream$(): Observable<StreamRecord> {
    if (this.observable === undefined) {
      this.subject = new Subject<StreamRecord>();
      this.observable = this.subject.asObservable();
    }
    return this.observable;
  }

  /** Adds a subscriber; returns the function that removes it (also callable as `.unsubscribe()`). */
  subscribe(subscriber: Subscriber): Unsubscribe {
    // concat, not a spread: a spread leaves room for 17 (184 bytes kept per bus for one subscriber).
    this.subscribers = this.subscribers.concat(subscriber);
    const unsubscribe = (): void => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers = this.subscribers.filter((_, i) => i !== index);
    };
    return Object.assign(unsubscribe, { unsubscribe });
  }

  /**
   * Adds a gate each event passes, as it reaches each subscriber (after the gates added before
   * it): the subscriber is shown what the gate returns, or is skipped for that event. The gate
   * is asked again for every subscriber, so it may answer differently once an earlier subscriber
   * has held the event (a run whose store failed meanwhile). Returns the function that removes it.
   */
  gate(gate: DeliveryGate): Unsubscribe {
    this.gates = this.gates.concat(gate);
    const remove = (): void => {
      const index = this.gates.indexOf(gate);
      if (index >= 0) this.gates = this.gates.filter((_, i) => i !== index);
    };
    return Object.assign(remove, { unsubscribe: remove });
  }

  /**
   * Publishes an event: on `stream$` at once, then to each subscriber in turn, after every event
   * emitted before it. Resolves when every subscriber has handled it. Never rejects.
   * Do not await `emit` from inside a subscriber: it would wait for itself.
   */
  emit(event: AgentEvent): Promise<void> {
    this.publish(event, undefined);
    if (this.delivering) {
      const pending: Pending = { event, resolve: undefined };
      this.queue.push(pending);
      // Executors made per promise, not kept as fields: every agent kept keeps its bus, and few
      // emits ask for a promise (the effects post).
      return new Promise<void>((resolve) => {
        pending.resolve = resolve;
      });
    }
    if (this.start(event)) return RESOLVED; // no promise while every subscriber is synchronous
    return new Promise<void>((resolve) => {
      this.resolveEvent = resolve;
    });
  }

  /**
   * Publishes an event as {@link EventBus.emit} does, for an emitter that does not wait for its
   * delivery: no promise is made.
   */
  post(event: AgentEvent): void {
    this.publish(event, undefined);
    if (this.delivering) this.queue.push({ event, resolve: undefined });
    else this.start(event);
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
    if (this.held !== undefined) this.startClock(this.held);
  }

  private publish(entry: JournalEntry | AgentEvent, journalIndex: number | undefined): void {
    const seq = this.seq++;
    // Nobody listening: no record to build and no clock to read. `seq` still counts every
    // record, so a late subscriber sees the positions an early one would.
    const subject = this.subject;
    if (subject === undefined || !subject.observed) return;
    const at = this.now() - this.origin;
    subject.next(journalIndex === undefined ? { seq, at, entry } : { seq, at, entry, journalIndex });
  }

  /**
   * Starts delivering `event` on an idle bus, then whatever its subscribers emitted meanwhile.
   * Returns false when a subscriber holds `event` itself (its `emit` promise is then the current
   * one), true once `event` reached every subscriber, even if a later queued event is held.
   */
  private start(event: AgentEvent): boolean {
    this.delivering = true;
    this.event = event;
    this.targets = this.subscribers;
    if (!this.deliverCurrent(0)) return false;
    this.deliverQueued();
    return true;
  }

  /** Delivers the current event from subscriber `from` on, then the queued ones (see {@link EventBus.deliverQueued}). */
  private deliver(from: number): void {
    if (this.deliverCurrent(from)) this.deliverQueued();
  }

  /**
   * Delivers the queued events in order, synchronously while subscribers are, until one is held
   * (its subscriber's promise resumes delivery) or none is left (the bus becomes idle).
   */
  private deliverQueued(): void {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      this.event = next.event;
      this.resolveEvent = next.resolve;
      this.targets = this.subscribers;
      if (!this.deliverCurrent(0)) return;
    }
    this.event = undefined;
    this.targets = NO_SUBSCRIBERS;
    this.becomeIdle();
  }

  /** Delivers the current event from subscriber `from` on; false when a subscriber holds it. */
  private deliverCurrent(from: number): boolean {
    const event = this.event as AgentEvent;
    const targets = this.targets;
    for (let i = from; i < targets.length; i++) {
      const subscriber = targets[i] as Subscriber;
      const shown = this.gates.length === 0 ? event : this.pass(event, subscriber);
      if (shown === undefined) continue;
      const result = this.call(subscriber, shown);
      if (result !== undefined) {
        this.hold(result, subscriber, i, shown);
        return false;
      }
    }
    const resolve = this.resolveEvent;
    this.resolveEvent = undefined;
    resolve?.();
    return true;
  }

  /** What `subscriber` is shown of `event` once every gate has passed it (undefined: nothing). */
  private pass(event: AgentEvent, subscriber: Subscriber): AgentEvent | undefined {
    let shown: AgentEvent | undefined = event;
    for (const gate of this.gates) {
      shown = gate(shown, subscriber);
      if (shown === undefined) return undefined;
    }
    return shown;
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
   * Waits for one subscriber's promise: for ever, or for `stopGraceMs` once the bus hurries
   * (from the moment it does, if this subscriber is already holding the event then). Delivery
   * goes on once it lets go, or at once when it is not waited for (it still holds an event the
   * bus gave up on in this stop).
   */
  private hold(promise: PromiseLike<void>, subscriber: Subscriber, index: number, event: AgentEvent): void {
    if (this.hurrying && this.stuck?.has(subscriber)) {
      Promise.resolve(promise).then(undefined, (error: unknown) => this.reportSubscriberError(error, event));
      RESOLVED.then(() => this.deliver(index + 1)); // one promise job later, as it always was
      return;
    }
    // The per-event path: one small object and its continuations, no async function. Delivery
    // resumes two promise jobs after the subscriber lets go, as it always has (the order of
    // events against tools that settle meanwhile depends on it).
    const hold: Hold = { subscriber, index, timer: undefined };
    this.held = hold;
    Promise.resolve(promise)
      .then(
        () => this.letGo(hold),
        (error: unknown) => {
          if (this.held === hold) this.reportSubscriberError(error, event);
          return this.letGo(hold);
        },
      )
      .then((from) => {
        if (from >= 0) this.deliver(from);
      });
    if (this.hurrying) this.startClock(hold);
  }

  /**
   * A subscriber let go of its event: returns where delivery goes on, or -1 when the bus had
   * already given up on it.
   */
  private letGo(hold: Hold): number {
    if (this.held !== hold) {
      this.stuck?.delete(hold.subscriber); // given up on: it is no longer stuck
      return -1;
    }
    this.held = undefined;
    if (hold.timer !== undefined) clearTimeout(hold.timer);
    return hold.index + 1;
  }

  private startClock(hold: Hold): void {
    hold.timer ??= setTimeout(() => this.giveUp(hold), this.stopGraceMs);
  }

  /** The grace period ran out: report the subscriber, mark it stuck and deliver on without it. */
  private giveUp(hold: Hold): void {
    const event = this.event as AgentEvent;
    this.reportSubscriberError(new SubscriberTimeoutError(event.type, this.stopGraceMs), event);
    this.stuck ??= new Set();
    this.stuck.add(hold.subscriber);
    this.held = undefined;
    RESOLVED.then(() => this.deliver(hold.index + 1)); // one promise job later, as it always was
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
