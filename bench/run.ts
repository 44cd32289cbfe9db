import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { bareContender } from './bare-loop.js';
import { turnCostCase } from './cases/turn-cost.js';
import type { Contender } from './contender.js';
import { harnessContender } from './harness-contender.js';
import { canCollectGarbage } from './support/measure.js';
import { markdownTable, type ResultRow } from './support/report.js';
import { benchSettings } from './support/settings.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const settings = benchSettings(args.includes('--quick'));
  if (!canCollectGarbage()) console.error('warning: run node with --expose-gc for heap figures');
  const contenders: Contender[] = [harnessContender(), bareContender()];
  const rows: ResultRow[] = [];
  console.error('case 1: CPU per turn');
  rows.push(...(await turnCostCase(contenders, settings)));
  console.log(markdownTable(rows));
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const machine = { nproc: cpus().length, node: process.version, cpu: cpus()[0]?.model };
  writeFileSync(
    new URL('./results/latest.json', import.meta.url),
    JSON.stringify({ settings, machine, rows }, null, 2),
  );
}

await main();
