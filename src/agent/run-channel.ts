import { AgentEvent, isStreamDelta, isTerminal } from '../core/agent-event.js';
import type { EventBus } from '../events/event-bus.js';
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
  // The reader of run() is an ordinary awaited subscriber: it holds each event until it asks
  // for the next, as a generator's body would (the bus delivers one event at a time, and the
  // loop waits for it to be idle before it starts a tool or asks the model). Not the last
  // event: the run releases the agent at once. Nor a delta (text, reasoning, a call's arguments):
  // the model's stream is read on while the reader works on one (the queue keeps order, so the reader still takes every
  // delta before the event after them, which is held); holding each would cost a promise and
  // a round trip per delta, a third of a streamed turn's allocation (bench:scale).
  const unsubscribe = setup.events.subscribe((event) => {
    if (event !== oldest) return; // another agent's run on a shared bus
    oldest = later !== undefined && later.length > 0 ? later.shift() : undefined;
    const terminal = isTerminal(event);
    // Once the store has failed, the reader sees nothing more past its last durable entry but the end.
    if (!terminal && session.storeFailure !== undefined) return;
    const read = queue.push(terminal ? durableEnd(session, event) : event, !terminal && !isStreamDelta(event));
    if (!terminal) return read;
    end();
  });
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
