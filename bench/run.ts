import { mkdirSync, writeFileSync } from 'node:fs';
import { bareContender } from './bare-loop.js';
import { cassetteReplayCase } from './cases/cassette-replay.js';
import { concurrencyCase } from './cases/concurrency.js';
import { eventBusCase } from './cases/event-bus.js';
import { heapCase } from './cases/heap.js';
import { replayCase } from './cases/replay.js';
import { sandboxCase } from './cases/sandbox.js';
import { turnCostCase } from './cases/turn-cost.js';
import type { Contender } from './contender.js';
import { harnessContender } from './harness-contender.js';
import { machineOnlyContender } from './machine-only-contender.js';
import { skeletonContender } from './skeleton-machine.js';
import { benchDir } from './support/bench-dir.js';
import { machineInfo } from './support/machine.js';
import { canCollectGarbage } from './support/measure.js';
import { loadPeers } from './support/peers-loader.js';
import { ratioTable } from './support/ratios.js';
import { markdownTable, type ResultRow } from './support/report.js';
import { type BenchSettings, benchSettings } from './support/settings.js';

/**
 * `npm run bench [-- --quick] [--peers] [--cases=1,2,3,4,5,6,7,8]`: runs the cases side by side in
 * this one process, prints a markdown table to stdout and writes the raw figures as JSON to
 * `bench/results/`. Progress goes to stderr.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const settings = benchSettings(args.includes('--quick'));
  const only = args
    .find((arg) => arg.startsWith('--cases='))
    ?.slice('--cases='.length)
    .split(',');
  const wants = (n: string): boolean => only === undefined || only.includes(n);
  if (!canCollectGarbage()) console.error('warning: run node with --expose-gc for heap figures');
  const peers = args.includes('--peers') ? await loadPeers() : [];
  // The XState skeleton is the floor under the harness for the machine's shape (docs/performance.md).
  const [harness, bare, machineOnly, skeleton] = [
    harnessContender(),
    bareContender(),
    machineOnlyContender(),
    skeletonContender(),
  ];
  const contenders: Contender[] = [harness, bare, machineOnly, skeleton, ...peers];
  const machine = machineInfo();
  const startedAt = new Date().toISOString();
  const rows: ResultRow[] = [];
  const phases: [string, string, () => Promise<ResultRow[]>][] = [
    ['1', 'CPU per turn', () => turnCostCase(contenders, settings)],
    ['2', 'concurrent sessions', () => concurrencyPhase([harness, bare, machineOnly, skeleton], peers, settings)],
    ['3', 'heap per session', () => heapCase(settings)],
    ['4', 'EventBus', () => eventBusCase(settings)],
    ['5', 'replay and journal size', () => replayCase(settings)],
    ['6', 'fixed cost per run (T = 0 and 1)', () => turnCostCase(contenders, settings, true)],
    ['7', 'shell call in bubblewrap vs none', () => sandboxCase(settings)],
    ['8', 'cassette replay vs the run that recorded it', () => cassetteReplayCase(settings)],
  ];
  for (const [n, name, phase] of phases) {
    if (!wants(n)) continue;
    console.error(`case ${n}: ${name}`);
    rows.push(...(await phase()));
  }
  const heading = `${settings.quick ? 'quick run' : 'full run'}, ${startedAt}: ${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}`;
  console.log(`${heading}\n\n${markdownTable(rows)}\n\n${ratioTable(rows)}`);
  const dir = new URL('results/', benchDir());
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify({ startedAt, settings, machine, rows }, null, 2);
  writeFileSync(new URL(`bench-${startedAt.replace(/[:.]/g, '-')}.json`, dir), json);
  writeFileSync(new URL('latest.json', dir), json);
}

/** Case 2 for the harness and the bare loop, and (one batch each, they are slow) for the peers. */
async function concurrencyPhase(
  own: readonly Contender[],
  peers: readonly Contender[],
  settings: BenchSettings,
): Promise<ResultRow[]> {
  const rows = await concurrencyCase(own, settings, true);
  if (peers.length > 0) rows.push(...(await concurrencyCase(peers, { ...settings, batchSamples: 1 })));
  return rows;
}

await main();
