import { mkdirSync, writeFileSync } from 'node:fs';
import { benchDir } from '../support/bench-dir.js';
import { machineInfo } from '../support/machine.js';
import { inProcessCapacity } from './in-process.js';
import { parseScaleOptions, type ScaleOptions, selectedSections } from './options.js';
import { parseRestateOptions } from './restate-options.js';
import { restateScale } from './restate-section.js';
import type { SectionReport } from './section.js';

/** The sections of `bench:scale` by name, in the order they run. */
const SECTIONS: Readonly<Record<string, (options: ScaleOptions, args: readonly string[]) => Promise<SectionReport>>> = {
  'in-process': (options) => inProcessCapacity(options),
  restate: (options, args) => restateScale(options, parseRestateOptions(args)),
};

/**
 * `npm run bench:scale [-- --only in-process|restate] [--sessions N] [--seed N] [--tool-turns N]
 * [--deltas N] [--no-peer] [--restate-runs N] [--restate-in-flight N] [--restate-workers 1,2,4]
 * [--restate-bare-steps K]` (or `SCALE_SESSIONS=N`): runs each section, prints markdown to stdout
 * and writes the results as JSON to `bench/results/`. Progress goes to stderr.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const options = parseScaleOptions(args, process.env);
  const names = selectedSections(args, Object.keys(SECTIONS));
  const machine = machineInfo();
  const startedAt = new Date().toISOString();
  const reports: SectionReport[] = [];
  for (const name of names) reports.push(await (SECTIONS[name] as (typeof SECTIONS)[string])(options, args));
  const load = `(${options.toolTurns} tool turns + answer) per session, ${options.deltas} text deltas per answer, 20–50 ms per turn, seed ${options.seed}`;
  const heading = `${startedAt}: ${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}; ${load}`;
  console.log([heading, ...reports.map((r) => `## ${r.title}\n\n${r.markdown}`)].join('\n\n'));
  const dir = new URL('results/', benchDir());
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify({ startedAt, options, machine, sections: reports }, null, 2);
  writeFileSync(new URL(`scale-${startedAt.replace(/[:.]/g, '-')}.json`, dir), json);
  writeFileSync(new URL('scale-latest.json', dir), json);
}

await main();
