import { pathToFileURL } from 'node:url';
import type { Contender } from './contender.js';

/**
 * Interleaved A/B of two compiled builds in one process (a shared, drifting machine makes
 * separate runs incomparable): `node --expose-gc .bench/bench/ab.js DIR_A DIR_B [T] [rounds]`,
 * where each DIR is a `tsc -p tsconfig.bench.json` output (`.bench`, or a copy of it). Each round
 * runs a block of sessions of T tool turns with A, B and the XState skeleton, in an order that
 * rotates from round to round, each block after a forced collection (with `--expose-gc`), and
 * records CPU µs per turn; prints the median of each and of the per-round ratios. With T = `c`,
 * each block is one batch of 1000 concurrent sessions of 10 tool turns, timed by the wall clock.
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

/** A full collection, when `--expose-gc` made one available. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** CPU µs per turn over `turns` turns of sequential sessions. */
async function block(contender: Contender, toolTurns: number, turns: number): Promise<number> {
  collect();
  const start = cpuUs();
  let done = 0;
  while (done < turns) done += await contender.run(toolTurns);
  return (cpuUs() - start) / done;
}

/** Wall ms of one batch of 1000 concurrent sessions of 10 tool turns (after 100 to warm up). */
async function batch(contender: Contender): Promise<number> {
  const all = (n: number) => Promise.all(Array.from({ length: n }, () => contender.run(10)));
  collect();
  await all(100);
  const start = performance.now();
  await all(1000);
  return performance.now() - start;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const [dirA = '.bench', dirB = '.bench', t = '10', rounds = '15', turnsPerBlock = '3000'] = process.argv.slice(2);
const concurrent = t === 'c';
const toolTurns = concurrent ? 10 : Number(t);
const a = await load(dirA, 'harness-contender.js', 'harnessContender');
const b = await load(dirB, 'harness-contender.js', 'harnessContender');
const skeleton = await load(dirA, 'skeleton-machine.js', 'skeletonContender');
const perBlock = Number(turnsPerBlock);
const measure = (contender: Contender) => (concurrent ? batch(contender) : block(contender, toolTurns, perBlock));
const order = [a, b, skeleton];
for (const contender of order) await measure(contender); // warm-up
const figures = {
  a: [] as number[],
  b: [] as number[],
  s: [] as number[],
  ba: [] as number[],
  bs: [] as number[],
  as: [] as number[],
};
for (let i = 0; i < Number(rounds); i++) {
  const round = new Map<Contender, number>();
  for (let k = 0; k < order.length; k++) {
    const contender = order[(i + k) % order.length] as Contender;
    round.set(contender, await measure(contender));
  }
  const fa = round.get(a) as number;
  const fb = round.get(b) as number;
  const fs = round.get(skeleton) as number;
  figures.a.push(fa);
  figures.b.push(fb);
  figures.s.push(fs);
  figures.ba.push(fb / fa);
  figures.as.push(fa / fs);
  figures.bs.push(fb / fs);
}
const f = (x: number): string => x.toFixed(2);
const unit = concurrent ? 'ms per 1000 × T=10 batch (wall)' : 'µs/turn (CPU)';
console.log(
  `${concurrent ? '1000×T=10' : `T=${toolTurns}`}: A ${f(median(figures.a))} ${unit}, B ${f(median(figures.b))}, skeleton ${f(median(figures.s))}; ` +
    `B/A ${f(median(figures.ba))} (${f(Math.min(...figures.ba))}–${f(Math.max(...figures.ba))}), ` +
    `A/skeleton ${f(median(figures.as))}, B/skeleton ${f(median(figures.bs))}`,
);
