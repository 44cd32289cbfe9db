import { type ActorLogic, createActor, type EventObject, fromPromise, setup, stopChild, toPromise } from 'xstate';

/**
 * What XState itself costs per turn for the agent machine's skeleton, with none of the
 * harness's work (no journal, events, tools or streams): `npm run bench:skeleton`.
 * Each variant loops through `awaiting` (the model request), optionally `executing` (spawn one
 * tool actor, stop it when it reports), and optionally two `always` states (observing,
 * budgetCheck); the last line runs the agent machine's shape 1000 × T=10 at once (case 2).
 */
const T = 100;
const RUNS = 300;

interface Shape {
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
    types: { context: {} as { turns: number }, events: {} as { type: 'SETTLED' } | { type: 'MODEL' } },
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
    initial: 'awaiting',
    states: {
      awaiting:
        model === 'invoke'
          ? { invoke: { src: 'model', onDone: [...answered] } }
          : { entry: 'request', on: { MODEL: [...answered] } },
      executing: {
        entry: machineSetup.assign(({ context, spawn: spawnTool }) => {
          spawnTool('tool', { id: `t${context.turns}` });
          return {};
        }),
        on: { SETTLED: { target: afterTools, actions: stopChild(({ context }) => `t${context.turns}`) } },
      },
      observing: { always: 'check' },
      check: { always: 'awaiting' },
      done: { type: 'final' },
    },
  });
}

async function runOnce(machine: ReturnType<typeof skeleton>): Promise<void> {
  const actor = createActor(machine);
  actor.start();
  await toPromise(actor);
}

async function cpuMicrosPerTurn(shape: Shape): Promise<number> {
  const machine = skeleton(shape, T);
  for (let i = 0; i < RUNS / 3; i++) await runOnce(machine);
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await runOnce(machine);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (RUNS * (T + 1));
}

async function concurrentWallMs(shape: Shape): Promise<number> {
  const machine = skeleton(shape, 10);
  const batch = () => Promise.all(Array.from({ length: 1000 }, () => runOnce(machine)));
  for (let i = 0; i < 3; i++) await batch();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await batch();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2] ?? Number.NaN;
}

const agentShape: Shape = { model: 'event', spawn: true, always: true };
const variants: [string, Shape][] = [
  ['request as event + spawn/stop a tool actor + 2 always (the agent machine)', agentShape],
  ['invoked request + spawn/stop a tool actor + 2 always (before)', { model: 'invoke', spawn: true, always: true }],
  ['request as event + 2 always (no tool actor)', { model: 'event', spawn: false, always: true }],
  ['request as event only', { model: 'event', spawn: false, always: false }],
];
for (const [name, shape] of variants)
  console.log(`${name.padEnd(76)} ${(await cpuMicrosPerTurn(shape)).toFixed(1)} µs/turn`);
console.log(
  `${'the agent machine 1000 × T=10 at once (case 2), wall time'.padEnd(76)} ${(await concurrentWallMs(agentShape)).toFixed(0)} ms`,
);
