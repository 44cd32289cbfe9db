import { pathToFileURL } from 'node:url';
import type { Contender } from './contender.js';

/**
 * Interleaved A/B of two compiled builds in one process (a shared, drifting machine makes
 * separate runs incomparable): `node --expose-gc .bench/bench/ab.js DIR_A DIR_B [T] [rounds]`,
 * where each DIR is a `tsc -p tsconfig.bench.json` output (`.bench`, or a copy of it). Each round
 * runs a block of sessions of T tool turns with A, then B, then the XState skeleton, and records
 * CPU µs per turn; prints the median of each and of the per-round ratios.
 */
async function load(dir: string, file: string, factory: string): Promise<Contender> {
  const module = (await import(pathToFileURL(`${dir}/bench/${file}`).href)) as Record<string, () => Contender>;
  const make = module[factory];
  if (make === undefined) throw new Error(`${dir}: no ${factory}`);
  return make();
}

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function block(contender: Contender, toolTurns: number, turns: number): Promise<number> {
  const start = cpuUs();
  let done = 0;
  while (done < turns) done += await contender.run(toolTurns);
  return (cpuUs() - start) / done;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const [dirA = '.bench', dirB = '.bench', t = '10', rounds = '15', turnsPerBlock = '3000'] = process.argv.slice(2);
const toolTurns = Number(t);
const a = await load(dirA, 'harness-contender.js', 'harnessContender');
const b = await load(dirB, 'harness-contender.js', 'harnessContender');
const skeleton = await load(dirA, 'skeleton-machine.js', 'skeletonContender');
const perBlock = Number(turnsPerBlock);
for (const contender of [a, b, skeleton]) await block(contender, toolTurns, perBlock); // warm-up
const figures = {
  a: [] as number[],
  b: [] as number[],
  s: [] as number[],
  ba: [] as number[],
  bs: [] as number[],
  as: [] as number[],
};
for (let i = 0; i < Number(rounds); i++) {
  const fa = await block(a, toolTurns, perBlock);
  const fb = await block(b, toolTurns, perBlock);
  const fs = await block(skeleton, toolTurns, perBlock);
  figures.a.push(fa);
  figures.b.push(fb);
  figures.s.push(fs);
  figures.ba.push(fb / fa);
  figures.as.push(fa / fs);
  figures.bs.push(fb / fs);
}
const f = (x: number): string => x.toFixed(2);
console.log(
  `T=${toolTurns}: A ${f(median(figures.a))} µs/turn, B ${f(median(figures.b))}, skeleton ${f(median(figures.s))}; ` +
    `B/A ${f(median(figures.ba))} (${f(Math.min(...figures.ba))}–${f(Math.max(...figures.ba))}), ` +
    `A/skeleton ${f(median(figures.as))}, B/skeleton ${f(median(figures.bs))}`,
);
