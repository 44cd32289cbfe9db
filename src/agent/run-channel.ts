import { AgentEvent, isStreamDelta, isTerminal } from '../core/agent-event.js';
import type { EventBus, Subscriber } from '../events/event-bus.js';
import type { Session } from '../session/session.js';
import type { AsyncQueue } from './async-queue.js';

/** A run's side of its agent's bus (see {@link openRunChannel}). */
export interface RunChannel {
  /** Emits an event of the run; resolves once every subscriber has it. */
  readonly emit: (event: AgentEvent) => Promise<void>;
  /** Emits an event of the run, with no promise. */
  readonly post: (event: AgentEvent) => void;
  /** Stops handing the run's events to its reader. */
  readonly unsubscribe: () => void;
  /**
   * Resolves once the reader has every event so far and asks for the next (or stops reading);
   * `undefined` when it has, or nobody reads. The deltas it was not held for: nothing after
   * them (a tool's start, a turn's end) goes on before the reader has them all.
   */
  readonly caughtUp: () => Promise<void> | undefined;
}

/** What a run's channel needs of its agent. */
export interface RunChannelSetup {
  /** The agent's bus (maybe shared with other agents). */
  readonly events: EventBus;
  /** The session the run appends to (its store's failure ends what the reader sees). */
  readonly session: Session;
  /** Emits the agent's own event on its bus; resolves once every subscriber has it. */
  readonly emitOwn: (event: AgentEvent) => Promise<void>;
  /** Emits the agent's own event on its bus, with no promise. */
  readonly postOwn: (event: AgentEvent) => void;
  /** The agent's subscriber that holds each event until the entries before it are durable. */
  readonly storeBarrier: Subscriber;
}

/**
 * Opens a run's side of the agent's bus: `emit` and `post` send the run's own events, and a
 * subscription hands them to the run's reader (`queue`) in order; `end` is called once the
 * terminal event is handed over.
 */
export function openRunChannel(setup: RunChannelSetup, queue: AsyncQueue<AgentEvent>, end: () => void): RunChannel {
  const { session } = setup;
  // This run's events not yet delivered, oldest first: the bus delivers in the order events
  // were emitted, so an event is this run's when it is the oldest of them (a shared bus
  // carries other agents' events too). Dropped with the run. The oldest is kept in a slot and
  // the rest (rare: events emitted while one is delivered) in an array made on first need: one
  // array emptied per event would allocate a backing store per text delta.
  let oldest: AgentEvent | undefined;
  let later: AgentEvent[] | undefined;
  const keep = (event: AgentEvent): void => {
    if (oldest === undefined) oldest = event;
    else if (later === undefined) later = [event];
    else later.push(event);
  };
  // What the run's event being delivered is shown as: itself, or once the store has failed
  // (SPEC §8) nothing past the last durable entry but the end, as `store_error`. Decided once
  // per event, where it reaches its first subscriber past the store's barrier, so that the
  // reader and every other subscriber see the same events (SPEC §4). Two fields, not an object
  // per event (deltas).
  let decidedFor: AgentEvent | undefined;
  let decided: AgentEvent | undefined;
  const shownAs = (event: AgentEvent): AgentEvent | undefined => {
    if (event === decidedFor) return decided;
    decidedFor = event;
    if (session.storeFailure === undefined) decided = event;
    else decided = isTerminal(event) ? durableEnd(session, event) : undefined;
    return decided;
  };
  // The reader of run() is an ordinary awaited subscriber: it holds each event until it asks
  // for the next, as a generator's body would (the bus delivers one event at a time, and the
  // loop waits for it to be idle before it starts a tool or asks the model). Not the last
  // event: the run releases the agent at once. Nor a delta (text, reasoning, a call's arguments):
  // the model's stream is read on while the reader works on one (the queue keeps order, so the reader still takes every
  // delta before the event after them, which is held); holding each would cost a promise and
  // a round trip per delta, a third of a streamed turn's allocation (bench:scale).
  const reader = (event: AgentEvent): Promise<void> | undefined => {
    if (event !== oldest) return; // another agent's run on a shared bus
    oldest = later !== undefined && later.length > 0 ? later.shift() : undefined;
    const shown = shownAs(event);
    if (shown === undefined) return;
    const terminal = isTerminal(event);
    const read = queue.push(shown, !terminal && !isStreamDelta(event));
    if (!terminal) return read;
    end();
  };
  const unsubscribeReader = setup.events.subscribe(reader);
  // The other subscribers see the run's events as the reader does: the bus asks this gate as an
  // event reaches each of them (a store fails while some subscriber holds an event).
  // A subscriber before the barrier (on a bus shared before the agent was made) gets an event
  // before its entries are known durable: the event is decided only once the barrier had it.
  const { storeBarrier } = setup;
  let barrierHad: AgentEvent | undefined;
  const ungate =
    session.store === undefined
      ? undefined
      : setup.events.gate((event, subscriber) => {
          if (subscriber === storeBarrier) barrierHad = event;
          if (subscriber === reader || subscriber === storeBarrier) return event;
          const ours = event === decidedFor || event === oldest || (later?.includes(event) ?? false);
          if (!ours || (event !== barrierHad && session.storeFailure === undefined)) return event;
          return shownAs(event);
        });
  const unsubscribe = (): void => {
    unsubscribeReader();
    ungate?.();
  };
  const emit = (event: AgentEvent): Promise<void> => {
    keep(event);
    return setup.emitOwn(event);
  };
  const post = (event: AgentEvent): void => {
    keep(event);
    setup.postOwn(event);
  };
  const caughtUp = (): Promise<void> | undefined => queue.caughtUp();
  return { emit, post, unsubscribe, caughtUp };
}

/** The run's last event, unless its store failed before the end was durable: then `store_error`. */
function durableEnd(session: Session, event: AgentEvent): AgentEvent {
  const failure = session.storeFailure;
  if (failure === undefined || (event.type === 'agent_error' && event.data.reason === 'store_error')) return event;
  return AgentEvent.agentError('store_error', failure.message);
}
