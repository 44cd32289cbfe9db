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
  /**
   * The effects the contract makes the machine name each turn, as no-op actions: a journaled
   * transition per state entered, the model turn, the result and its report; and one budget guard.
   */
  readonly effects?: boolean;
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

const noop = (): void => {};

/** Waits out the model's time for turn `turn` (1-based) of session `session`. */
export type Pace = (session: number, turn: number) => Promise<void>;

function skeleton({ model, spawn, always, effects = false }: Shape, turns: number, pace?: Pace) {
  const afterTools = always ? 'observing' : 'awaiting';
  const next = spawn ? 'executing' : afterTools;
  const machineSetup = setup({
    types: {
      context: {} as { turns: number; session: number },
      input: {} as { session: number } | undefined,
      events: {} as { type: 'SETTLED' } | { type: 'MODEL' },
      output: {} as number,
    },
    actors: { model: fromPromise(async () => 1), tool },
    actions: {
      request: ({ self, context }) => {
        const answer = (): void => self.send({ type: 'MODEL' });
        if (pace === undefined) queueMicrotask(answer);
        else void pace(context.session, context.turns + 1).then(answer);
      },
      recordTransition: (_, _params: { to: string }) => noop(),
      recordModelTurn: (_, _params: { event: object }) => noop(),
      recordResult: (_, _params: { event: object }) => noop(),
      reportResults: (_, _params: { event: object }) => noop(),
    },
    guards: { last: ({ context }) => context.turns >= turns, overBudget: ({ context }) => context.turns > turns + 1 },
  });
  const count = machineSetup.assign({ turns: ({ context }) => context.turns + 1 });
  const enter = (to: string) => (effects ? [{ type: 'recordTransition', params: { to } } as const] : []);
  const effect = <T extends 'recordModelTurn' | 'recordResult' | 'reportResults'>(type: T) =>
    effects ? [{ type, params: ({ event }: { event: object }) => ({ event }) }] : [];
  const answered = [
    { guard: 'last', target: 'done' },
    { target: next, reenter: true, actions: [...effect('recordModelTurn'), count] },
  ] as const;
  return machineSetup.createMachine({
    context: ({ input }) => ({ turns: 0, session: input?.session ?? 0 }),
    output: ({ context }) => context.turns,
    initial: 'awaiting',
    states: {
      awaiting:
        model === 'invoke'
          ? { entry: enter('awaiting'), invoke: { src: 'model', onDone: [...answered] } }
          : { entry: [...enter('awaiting'), 'request'], on: { MODEL: [...answered] } },
      executing: {
        entry: [
          ...enter('executing'),
          machineSetup.assign(({ spawn: spawnTool }) => {
            spawnTool('tool', { id: 'tool-0' }); // the agent machine reuses ids per position
            return {};
          }),
        ],
        on: {
          SETTLED: {
            target: afterTools,
            actions: [...effect('recordResult'), stopChild('tool-0'), ...effect('reportResults')],
          },
        },
      },
      observing: { entry: enter('observing'), always: 'check' },
      check: {
        entry: enter('check'),
        always: effects ? [{ guard: 'overBudget', target: 'done' }, { target: 'awaiting' }] : 'awaiting',
      },
      done: { type: 'final' },
    },
  });
}

/** The agent machine's shape: the model request as an event, one tool actor per turn, two `always` states. */
export const AGENT_SHAPE: Shape = { model: 'event', spawn: true, always: true };

/** {@link AGENT_SHAPE} with the effects the contract names each turn: the floor for a machine that keeps the contract. */
export const CONTRACT_SHAPE: Shape = { ...AGENT_SHAPE, effects: true };

/**
 * Builds a skeleton machine of `shape` and returns a function that runs it once to its end —
 * `turns` tool turns (model turns, for a shape without tools), then the final answer — and
 * resolves with the turns it counted.
 */
export function skeletonRunner(shape: Shape, turns: number, pace?: Pace): (session?: number) => Promise<number> {
  const machine = skeleton(shape, turns, pace);
  return async (session = 0) => {
    const actor = createActor(machine, { input: { session } });
    actor.start();
    return await toPromise(actor);
  };
}

/** The skeleton of the agent machine as a contender: XState's floor beside the harness. */
export function skeletonContender(shape: Shape = AGENT_SHAPE, name = 'XState skeleton'): Contender {
  const runnerOf = oncePerToolTurns((toolTurns) => skeletonRunner(shape, toolTurns));
  return {
    name,
    async run(toolTurns) {
      const runOnce = runnerOf(toolTurns);
      const counted = await runOnce();
      return expectComplete(name, 'complete', counted + 1, toolTurns);
    },
  };
}
