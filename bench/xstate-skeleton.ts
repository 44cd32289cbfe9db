import { assign, createActor, enqueueActions, fromCallback, fromPromise, setup, toPromise } from 'xstate';

/**
 * What XState itself costs per turn for the agent machine's skeleton, without any of its
 * actions: `npx tsx bench/xstate-skeleton.ts`. Each variant loops T times through a state that
 * invokes a promise actor (the model request), optionally a state that spawns and stops one
 * callback actor (the tool call), and optionally two `always` states (observing, budgetCheck).
 */
const T = 100;
const RUNS = 300;

interface Shape {
  readonly spawn: boolean;
  readonly always: boolean;
}

function skeleton({ spawn, always }: Shape) {
  const afterTools = always ? 'observing' : 'awaiting';
  return setup({
    types: { context: {} as { turns: number }, events: {} as { type: 'SETTLED' } },
    actors: {
      model: fromPromise(async () => 1),
      tool: fromCallback(({ sendBack }) => {
        void Promise.resolve().then(() => sendBack({ type: 'SETTLED' }));
      }),
    },
  }).createMachine({
    context: { turns: 0 },
    initial: 'awaiting',
    states: {
      awaiting: {
        entry: assign({ turns: ({ context }) => context.turns + 1 }),
        invoke: {
          src: 'model',
          onDone: [
            { guard: ({ context }) => context.turns > T, target: 'done' },
            { target: spawn ? 'executing' : afterTools, reenter: true },
          ],
        },
      },
      executing: {
        entry: enqueueActions(({ enqueue, context }) => enqueue.spawnChild('tool', { id: `t${context.turns}` })),
        on: {
          SETTLED: {
            target: afterTools,
            actions: enqueueActions(({ enqueue, context }) => enqueue.stopChild(`t${context.turns}`)),
          },
        },
      },
      observing: { always: 'check' },
      check: { always: 'awaiting' },
      done: { type: 'final' },
    },
  });
}

async function cpuMicrosPerTurn(shape: Shape): Promise<number> {
  const machine = skeleton(shape);
  const once = async (): Promise<void> => {
    const actor = createActor(machine);
    actor.start();
    await toPromise(actor);
  };
  for (let i = 0; i < RUNS / 3; i++) await once();
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await once();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (RUNS * (T + 1));
}

const variants: [string, Shape][] = [
  ['invoke + spawn + 2 always (the agent machine)', { spawn: true, always: true }],
  ['invoke + spawn', { spawn: true, always: false }],
  ['invoke + 2 always', { spawn: false, always: true }],
  ['invoke only', { spawn: false, always: false }],
];
for (const [name, shape] of variants)
  console.log(`${name.padEnd(48)} ${(await cpuMicrosPerTurn(shape)).toFixed(1)} µs/turn`);
