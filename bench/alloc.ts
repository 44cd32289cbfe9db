import { pathToFileURL } from 'node:url';
import type { Contender } from './contender.js';

/**
 * Heap allocated per turn (garbage included, V8's sampling heap profiler) for the harness of
 * one or more compiled builds: `node .bench/bench/alloc.js T RUNS DIR...` (each DIR a
 * `tsc -p tsconfig.bench.json` output). Unlike time, it does not depend on the machine's load.
 */
const [t = '10', runs = '300', ...dirs] = process.argv.slice(2);
const others = process.env.CONTENDERS === undefined ? [] : process.env.CONTENDERS.split(',');
const { allocatedBytes } = await import(pathToFileURL(`${dirs[0] ?? '.bench'}/bench/support/allocation.js`).href);
for (const dir of dirs.length > 0 ? dirs : ['.bench']) {
  const module = (await import(pathToFileURL(`${dir}/bench/harness-contender.js`).href)) as {
    harnessContender(): Contender;
  };
  const contender = module.harnessContender();
  const toolTurns = Number(t);
  for (let i = 0; i < 200; i++) await contender.run(toolTurns); // warm-up
  const bytes: number = await allocatedBytes(async () => {
    for (let i = 0; i < Number(runs); i++) await contender.run(toolTurns);
  });
  const perRun = bytes / Number(runs);
  console.log(
    `${dir}: T=${t}: ${(perRun / 1024).toFixed(1)} KB/run, ${(perRun / (toolTurns + 1) / 1024).toFixed(2)} KB/turn`,
  );
}
// CONTENDERS=skeleton,machine: the same for the floors, from the first build.
const floors: Record<string, [string, string]> = {
  skeleton: ['skeleton-machine.js', 'skeletonContender'],
  machine: ['machine-only-contender.js', 'machineOnlyContender'],
};
for (const name of others) {
  const [file, factory] = floors[name] ?? [];
  if (file === undefined || factory === undefined) throw new Error(`unknown contender ${name}`);
  const module = (await import(pathToFileURL(`${dirs[0] ?? '.bench'}/bench/${file}`).href)) as Record<
    string,
    () => Contender
  >;
  const contender = (module[factory] as () => Contender)();
  const toolTurns = Number(t);
  for (let i = 0; i < 200; i++) await contender.run(toolTurns);
  const bytes: number = await allocatedBytes(async () => {
    for (let i = 0; i < Number(runs); i++) await contender.run(toolTurns);
  });
  const perRun = bytes / Number(runs);
  console.log(
    `${name}: T=${t}: ${(perRun / 1024).toFixed(1)} KB/run, ${(perRun / (toolTurns + 1) / 1024).toFixed(2)} KB/turn`,
  );
}
