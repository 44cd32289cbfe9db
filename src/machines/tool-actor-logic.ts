import type { ActorLogic, AnyActorRef, EventObject, Snapshot } from 'xstate';
import { LazyAbort } from '../core/lazy-abort.js';
import type { CancelToolEvent, HandoffEvent, ToolActorInput, ToolSettledEvent } from './agent-machine-types.js';

/**
 * A tool actor's snapshot: `active` while its call runs, `stopped` once the machine stops it.
 * It holds the call's own abort: cancelling one call is stopping (or sending `CANCEL` to) one
 * actor. The abort's `AbortController` is made only if the tool reads its signal.
 */
export type ToolActorSnapshot = Snapshot<undefined> & {
  readonly input: ToolActorInput;
  readonly abort: LazyAbort;
};

/**
 * Runs one tool call for a tool actor and reports the outcome with `settle` (ignored once the
 * actor is stopped); a handoff tool's call sends its `HANDOFF` the same way, just before. `abort` is the call's own: it aborts when the actor is cancelled or
 * stopped (its `signal` is made on first use). `system` is the actor system of the run the call
 * belongs to (what the agent binds its run to).
 */
export type ToolCallRunner = (
  input: ToolActorInput,
  settle: (event: ToolSettledEvent | HandoffEvent) => void,
  system: object,
  abort: LazyAbort,
) => void;

/** XState's internal relay (not in its types): sends an event with its source, for inspection. */
interface RelayingSystem {
  readonly _relay?: (source: AnyActorRef, target: AnyActorRef, event: EventObject) => void;
}

/** The actor logic of one tool call, spawned by the agent machine. */
export type ToolActorLogic = ActorLogic<ToolActorSnapshot, EventObject, ToolActorInput>;

/**
 * The logic of a tool actor: it starts `runCall` with the call's own AbortSignal and sends the
 * settled result to the machine that spawned it. Like `fromPromise`, it aborts that signal when
 * it is stopped, and also on `CANCEL`. Smaller than `fromCallback` (no receivers, no
 * per-instance bookkeeping), which matters at one actor per tool call.
 */
export function toolActorLogic(runCall: ToolCallRunner): ToolActorLogic {
  return {
    config: runCall,
    getInitialSnapshot: (_, input) => ({
      status: 'active',
      output: undefined,
      error: undefined,
      input,
      abort: new LazyAbort(),
    }),
    start: (snapshot, { self, system }) => {
      const settle = (event: ToolSettledEvent | HandoffEvent): void => {
        const parent = self._parent;
        if (parent === undefined || self.getSnapshot().status !== 'active') return;
        // As `fromCallback`'s `sendBack` does, so that inspection shows the tool actor as the source.
        const relay = (system as RelayingSystem)._relay;
        if (relay === undefined) parent.send(event);
        else relay(self, parent, event);
      };
      runCall(snapshot.input, settle, system, snapshot.abort);
    },
    transition: (snapshot, event) => {
      if (event.type === 'CANCEL') {
        snapshot.abort.abort((event as CancelToolEvent).reason);
        return snapshot;
      }
      if (event.type !== 'xstate.stop') return snapshot;
      snapshot.abort.abort('the tool call was stopped');
      return { status: 'stopped', output: undefined, error: undefined, input: snapshot.input, abort: snapshot.abort };
    },
    getPersistedSnapshot: ({ status, output, error, input }) => ({ status, output, error, input }) as ToolActorSnapshot,
  };
}
