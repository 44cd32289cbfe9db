import type { Contender } from './contender.js';
import { harnessContender } from './harness-contender.js';
import { machineOnlyContender } from './machine-only-contender.js';
import { skeletonContender } from './skeleton-machine.js';

/**
 * A fixed amount of work for instruction counting (`valgrind --tool=callgrind`, or any counter):
 * `node .bench/bench/count.js CONTENDER T RUNS [WARMUP]` runs WARMUP runs, then RUNS runs of T
 * tool turns, one after another. Run it twice with different RUNS and subtract: the difference
 * is the cost of the extra runs alone, free of start-up and of the machine's load.
 */
const contenders: Record<string, () => Contender> = {
  harness: harnessContender,
  machine: machineOnlyContender,
  skeleton: skeletonContender,
};
const [name = 'harness', t = '10', runs = '100', warmup = '200'] = process.argv.slice(2);
const make = contenders[name];
if (make === undefined) throw new Error(`unknown contender ${name}: one of ${Object.keys(contenders).join(', ')}`);
const contender = make();
const toolTurns = Number(t);
for (let i = 0; i < Number(warmup); i++) await contender.run(toolTurns);
for (let i = 0; i < Number(runs); i++) await contender.run(toolTurns);
