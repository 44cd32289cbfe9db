import { type ActorLogic, createActor, type EventObject, fromPromise, setup, stopChild, toPromise } from 'xstate';
import { type Contender, expectComplete, oncePerToolTurns } from './contender.js';

/**
 * The agent machine's skeleton in XState with none of the harness's work: no journal, events,
 * tools or streams. It is the floor under the harness's cost per turn for this machine's shape.
 */

/** Which parts of the agent machine's shape a skeleton has. */
export interface Shape {
  /** The model request: an invoked promise actor, or an effect that answers with an event. */
  readonly model: 'invoke' | 'event';
  readonly spawn: boolean;
  readonly always: boolean;
}

type Snap =
  | { status: 'active'; output: undefined; error: undefined }
  | { status: 'stopped'; output: undefined; error: undefined };

/** A tool actor as small as XState allows: it reports on the next microtask. */
const tool: ActorLogic<Snap, EventObject> = {
  getInitialSnapshot: () => ({ status: 'active', output: undefined, error: undefined }),
  start: (_, { self }) => queueMicrotask(() => self._parent?.send({ type: 'SETTLED' })),
  transition: (snapshot, event) =>
    event.type === 'xstate.stop' ? { status: 'stopped', output: undefined, error: undefined } : snapshot,
  getPersistedSnapshot: (snapshot) => snapshot,
};

function skeleton({ model, spawn, always }: Shape, turns: number) {
  const afterTools = always ? 'observing' : 'awaiting';
  const next = spawn ? 'executing' : afterTools;
  const machineSetup = setup({
    types: {
      context: {} as { turns: number },
      events: {} as { type: 'SETTLED' } | { type: 'MODEL' },
      output: {} as number,
    },
    actors: { model: fromPromise(async () => 1), tool },
    actions: { request: ({ self }) => queueMicrotask(() => self.send({ type: 'MODEL' })) },
    guards: { last: ({ context }) => context.turns >= turns },
  });
  const count = machineSetup.assign({ turns: ({ context }) => context.turns + 1 });
  const answered = [
    { guard: 'last', target: 'done' },
    { target: next, reenter: true, actions: count },
  ] as const;
  return machineSetup.createMachine({
    context: { turns: 0 },
    output: ({ context }) => context.turns,
    initial: 'awaiting',
    states: {
      awaiting:
        model === 'invoke'
          ? { invoke: { src: 'model', onDone: [...answered] } }
          : { entry: 'request', on: { MODEL: [...answered] } },
      executing: {
        entry: machineSetup.assign(({ spawn: spawnTool }) => {
          spawnTool('tool', { id: 'tool-0' }); // the agent machine reuses ids per position
          return {};
        }),
        on: { SETTLED: { target: afterTools, actions: stopChild('tool-0') } },
      },
      observing: { always: 'check' },
      check: { always: 'awaiting' },
      done: { type: 'final' },
    },
  });
}

/** The agent machine's shape: the model request as an event, one tool actor per turn, two `always` states. */
export const AGENT_SHAPE: Shape = { model: 'event', spawn: true, always: true };

/**
 * Builds a skeleton machine of `shape` and returns a function that runs it once to its end —
 * `turns` tool turns (model turns, for a shape without tools), then the final answer — and
 * resolves with the turns it counted.
 */
export function skeletonRunner(shape: Shape, turns: number): () => Promise<number> {
  const machine = skeleton(shape, turns);
  return async () => {
    const actor = createActor(machine);
    actor.start();
    return await toPromise(actor);
  };
}

/** The skeleton of the agent machine as a contender: XState's floor beside the harness. */
export function skeletonContender(): Contender {
  const runnerOf = oncePerToolTurns((toolTurns) => skeletonRunner(AGENT_SHAPE, toolTurns));
  return {
    name: 'XState skeleton',
    async run(toolTurns) {
      const runOnce = runnerOf(toolTurns);
      const counted = await runOnce();
      return expectComplete('XState skeleton', 'complete', counted + 1, toolTurns);
    },
  };
}
