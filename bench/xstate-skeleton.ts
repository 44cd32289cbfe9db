import { AGENT_SHAPE, type Shape, skeletonRunner } from './skeleton-machine.js';

/**
 * What XState itself costs per turn for the agent machine's skeleton, with none of the
 * harness's work (no journal, events, tools or streams): `npm run bench:skeleton`.
 * Each variant loops through `awaiting` (the model request), optionally `executing` (spawn one
 * tool actor, stop it when it reports), and optionally two `always` states (observing,
 * budgetCheck); the last line runs the agent machine's shape 1000 × T=10 at once (case 2).
 */
const T = 100;
const RUNS = 300;

async function cpuMicrosPerTurn(shape: Shape): Promise<number> {
  const runOnce = skeletonRunner(shape, T);
  for (let i = 0; i < RUNS / 3; i++) await runOnce();
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await runOnce();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (RUNS * (T + 1));
}

async function concurrentWallMs(shape: Shape): Promise<number> {
  const runOnce = skeletonRunner(shape, 10);
  const batch = () => Promise.all(Array.from({ length: 1000 }, () => runOnce()));
  for (let i = 0; i < 3; i++) await batch();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await batch();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2] ?? Number.NaN;
}

const variants: [string, Shape][] = [
  ['request as event + spawn/stop a tool actor + 2 always (the agent machine)', AGENT_SHAPE],
  ['invoked request + spawn/stop a tool actor + 2 always (before)', { model: 'invoke', spawn: true, always: true }],
  ['request as event + 2 always (no tool actor)', { model: 'event', spawn: false, always: true }],
  ['request as event only', { model: 'event', spawn: false, always: false }],
];
for (const [name, shape] of variants)
  console.log(`${name.padEnd(76)} ${(await cpuMicrosPerTurn(shape)).toFixed(1)} µs/turn`);
console.log(
  `${'the agent machine 1000 × T=10 at once (case 2), wall time'.padEnd(76)} ${(await concurrentWallMs(AGENT_SHAPE)).toFixed(0)} ms`,
);
