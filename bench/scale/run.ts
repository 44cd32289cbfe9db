import { mkdirSync, writeFileSync } from 'node:fs';
import { benchDir } from '../support/bench-dir.js';
import { machineInfo } from '../support/machine.js';
import { inProcessCapacity, type SectionReport } from './in-process.js';
import { parseScaleOptions, type ScaleOptions } from './options.js';

/** The sections of `bench:scale`, in the order they run. */
const SECTIONS: readonly ((options: ScaleOptions) => Promise<SectionReport>)[] = [inProcessCapacity];

/**
 * `npm run bench:scale [-- --sessions N] [--seed N] [--tool-turns N] [--deltas N] [--no-peer]`
 * (or `SCALE_SESSIONS=N`): runs each section, prints markdown to stdout and writes the raw
 * results as JSON to `bench/results/`. Progress goes to stderr.
 */
async function main(): Promise<void> {
  const options = parseScaleOptions(process.argv.slice(2), process.env);
  const machine = machineInfo();
  const startedAt = new Date().toISOString();
  const reports: SectionReport[] = [];
  for (const section of SECTIONS) reports.push(await section(options));
  const load = `${options.sessions} sessions × (${options.toolTurns} tool turns + answer), ${options.deltas} text deltas per answer, 20–50 ms per turn, seed ${options.seed}`;
  const heading = `${startedAt}: ${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}; ${load}`;
  console.log([heading, ...reports.map((r) => `## ${r.title}\n\n${r.markdown}`)].join('\n\n'));
  const dir = new URL('results/', benchDir());
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify({ startedAt, options, machine, sections: reports }, null, 2);
  writeFileSync(new URL(`scale-${startedAt.replace(/[:.]/g, '-')}.json`, dir), json);
  writeFileSync(new URL('scale-latest.json', dir), json);
}

await main();
