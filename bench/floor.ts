import type { Contender } from './contender.js';
import { harnessContender } from './harness-contender.js';
import { machineOnlyContender } from './machine-only-contender.js';
import { CONTRACT_SHAPE, skeletonContender } from './skeleton-machine.js';
import { summarise } from './support/stats.js';

/**
 * Where the harness's cost per turn sits between XState's floors, in one process:
 * `node --expose-gc .bench/bench/floor.js [T] [rounds]` (after `npm run build:bench`).
 *
 * - the XState skeleton: the machine's shape, nothing else (the floor of case 1);
 * - the contract floor: the skeleton plus the effects the contract makes the machine name each
 *   turn, as no-op actions (a journaled transition per state entered, the turn, the result and
 *   its report; one budget guard): what any machine that keeps the contract pays XState;
 * - `agentMachine` alone, with effects that only answer;
 * - the harness.
 *
 * Each round samples all four in a rotating order; each is reported as the median of its
 * per-round ratios to the skeleton, which cancels the machine's drift.
 */
const [t = '100', rounds = '15'] = process.argv.slice(2);
const toolTurns = Number(t);
const TURNS_PER_SAMPLE = 3000;

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function sample(contender: Contender): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = cpuUs();
  let done = 0;
  while (done < TURNS_PER_SAMPLE) done += await contender.run(toolTurns);
  return (cpuUs() - start) / done;
}

const contenders = [
  skeletonContender(),
  skeletonContender(CONTRACT_SHAPE, 'contract floor'),
  machineOnlyContender(),
  harnessContender(),
];
for (const contender of contenders) await sample(contender); // warm-up
const perRound = contenders.map(() => [] as number[]);
for (let round = 0; round < Number(rounds); round++) {
  const figures = new Array<number>(contenders.length);
  for (let k = 0; k < contenders.length; k++) {
    const i = (round + k) % contenders.length;
    figures[i] = await sample(contenders[i] as Contender);
  }
  const skeleton = figures[0] as number;
  for (let i = 0; i < contenders.length; i++) perRound[i]?.push((figures[i] as number) / skeleton);
}
console.log(`T=${toolTurns}, ${rounds} rounds, CPU per turn as a multiple of the XState skeleton (median, min–max):`);
contenders.forEach((contender, i) => {
  const { median, min, max } = summarise(perRound[i] as number[]);
  console.log(`  ${contender.name.padEnd(20)} ${median.toFixed(2)}× (${min.toFixed(2)}–${max.toFixed(2)})`);
});
