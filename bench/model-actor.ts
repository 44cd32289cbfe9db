import { AGENT_SHAPE, skeletonRunner } from './skeleton-machine.js';
import { allocatedBytes } from './support/allocation.js';

/**
 * Issue 12's question, measured on the skeleton in one process: does the model request cost
 * more as an invoked promise actor than as an effect answered by an event?
 * `node .bench/bench/model-actor.js [T] [rounds]`: interleaved CPU µs per turn, then heap
 * allocated per turn, for both shapes.
 */
const toolTurns = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 15);
const shapes = {
  event: skeletonRunner(AGENT_SHAPE, toolTurns),
  invoke: skeletonRunner({ ...AGENT_SHAPE, model: 'invoke' }, toolTurns),
};

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function block(run: () => Promise<number>, runs: number): Promise<number> {
  const start = cpuUs();
  for (let i = 0; i < runs; i++) await run();
  return (cpuUs() - start) / (runs * (toolTurns + 1));
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1] as number;
}

for (const run of Object.values(shapes)) await block(run, 500); // warm-up
const event: number[] = [];
const invoke: number[] = [];
for (let i = 0; i < rounds; i++) {
  event.push(await block(shapes.event, 150));
  invoke.push(await block(shapes.invoke, 150));
}
const ratio = median(invoke.map((us, i) => us / (event[i] as number)));
console.log(
  `CPU µs/turn: event ${median(event).toFixed(1)}, invoke ${median(invoke).toFixed(1)}, invoke/event ${ratio.toFixed(2)}`,
);
for (const [name, run] of Object.entries(shapes)) {
  const bytes = await allocatedBytes(async () => {
    for (let i = 0; i < 300; i++) await run();
  });
  console.log(`${name}: ${(bytes / 300 / (toolTurns + 1) / 1024).toFixed(2)} KB/turn allocated`);
}
