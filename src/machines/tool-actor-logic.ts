import type { ActorLogic, AnyActorRef, EventObject, Snapshot } from 'xstate';
import type { ToolActorInput, ToolSettledEvent } from './agent-machine-types.js';

/** A tool actor's snapshot: `active` while its call runs, `stopped` once the machine stops it. */
export type ToolActorSnapshot = Snapshot<undefined> & { readonly input: ToolActorInput };

/**
 * Runs one tool call for a tool actor and reports the outcome with `settle` (ignored once the
 * actor is stopped). `system` is the actor system of the run the call belongs to (what the
 * agent binds its run to).
 */
export type ToolCallRunner = (input: ToolActorInput, settle: (event: ToolSettledEvent) => void, system: object) => void;

/** XState's internal relay (not in its types): sends an event with its source, for inspection. */
interface RelayingSystem {
  readonly _relay?: (source: AnyActorRef, target: AnyActorRef, event: EventObject) => void;
}

/** The actor logic of one tool call, spawned by the agent machine. */
export type ToolActorLogic = ActorLogic<ToolActorSnapshot, EventObject, ToolActorInput>;

/**
 * The logic of a tool actor: it starts `runCall` and sends the settled result to the machine
 * that spawned it. Smaller than `fromCallback` (no receivers, no per-instance bookkeeping),
 * which matters at one actor per tool call.
 */
export function toolActorLogic(runCall: ToolCallRunner): ToolActorLogic {
  return {
    config: runCall,
    getInitialSnapshot: (_, input) => ({ status: 'active', output: undefined, error: undefined, input }),
    start: (snapshot, { self, system }) => {
      const settle = (event: ToolSettledEvent): void => {
        const parent = self._parent;
        if (parent === undefined || self.getSnapshot().status !== 'active') return;
        // As `fromCallback`'s `sendBack` does, so that inspection shows the tool actor as the source.
        const relay = (system as RelayingSystem)._relay;
        if (relay === undefined) parent.send(event);
        else relay(self, parent, event);
      };
      runCall(snapshot.input, settle, system);
    },
    transition: (snapshot, event) =>
      event.type === 'xstate.stop'
        ? { status: 'stopped', output: undefined, error: undefined, input: snapshot.input }
        : snapshot,
    getPersistedSnapshot: (snapshot) => snapshot,
  };
}
