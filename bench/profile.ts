import { harnessContender } from './harness-contender.js';

/**
 * A steady harness workload for `node --cpu-prof`: `npm run bench:profile -- [T] [runs]`.
 * Read the profile with `tsx bench/support/top-functions.ts FILE.cpuprofile`.
 */
const toolTurns = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 200);
const contender = harnessContender();
for (let i = 0; i < runs; i++) await contender.run(toolTurns);
