import { createActor, setup, toPromise } from 'xstate';

/**
 * Why the agent machine's context stays under 20 keys: a minimal machine (one request and one
 * pass-through state per turn, two `assign`s) with a context of `narrow` keys beside one of
 * `wide` keys, CPU µs per turn, interleaved rounds: `node .bench/bench/context-width.js [narrow]
 * [wide] [rounds]`. XState copies the context with `Object.assign({}, context, update)`, and V8
 * makes an object that gains 20 or more keys that way a hash table.
 */
const [narrow = 14, wide = 28, rounds = 11] = process.argv.slice(2).map(Number);
const TURNS = 10;

type Context = Record<string, number> & { turns: number };

function machineWith(extraKeys: number) {
  const extra: Record<string, number> = {};
  for (let i = 0; i < extraKeys; i++) extra[`f${i}`] = i;
  const machineSetup = setup({
    types: { context: {} as Context, events: {} as { type: 'MODEL' } },
    actions: { request: ({ self }) => queueMicrotask(() => self.send({ type: 'MODEL' })) },
    guards: { last: ({ context }) => context.turns >= TURNS && (context.f0 ?? 0) >= 0 },
  });
  return machineSetup.createMachine({
    context: () => ({ turns: 0, ...extra }),
    initial: 'awaiting',
    states: {
      awaiting: {
        entry: 'request',
        on: {
          MODEL: [
            { guard: 'last', target: 'done' },
            {
              target: 'observing',
              actions: machineSetup.assign(({ context }) => ({ turns: context.turns + 1, f2: (context.f2 ?? 0) + 1 })),
            },
          ],
        },
      },
      observing: {
        always: {
          target: 'awaiting',
          actions: machineSetup.assign(({ context }) => ({ f3: (context.f3 ?? 0) + 1 })),
        },
      },
      done: { type: 'final' },
    },
  });
}

async function microsPerTurn(machine: ReturnType<typeof machineWith>, runs: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const actor = createActor(machine);
    actor.start();
    await toPromise(actor);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / runs / (TURNS + 1);
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const small = machineWith(narrow);
const large = machineWith(wide);
await microsPerTurn(small, 3000);
await microsPerTurn(large, 3000);
const ratios: number[] = [];
const figures: [number[], number[]] = [[], []];
for (let round = 0; round < rounds; round++) {
  const a = await microsPerTurn(small, 1500);
  const b = await microsPerTurn(large, 1500);
  figures[0].push(a);
  figures[1].push(b);
  ratios.push(b / a);
}
console.log(
  `context of ${narrow + 1} keys: ${median(figures[0]).toFixed(2)} µs/turn; ${wide + 1} keys: ${median(figures[1]).toFixed(2)} µs/turn; ratio ${median(ratios).toFixed(2)} (median of ${rounds} rounds)`,
);
