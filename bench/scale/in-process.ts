import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchDir } from '../support/bench-dir.js';
import type { CapacityResult } from './capacity.js';
import { capacityTable, type ModeResults } from './capacity-table.js';
import { type InProcessMode, type ScaleOptions, scaleFlags } from './options.js';
import type { SectionReport } from './section.js';
import type { StaggeredResult } from './staggered.js';
import { type MaxInFlightSummary, maxInFlightLines, staggeredTable } from './staggered-table.js';

/** Runs one contender in one mode in a child process of the same node and flags; resolves with its result. */
function runChild<T>(key: string, mode: InProcessMode, options: ScaleOptions): Promise<T> {
  const script = fileURLToPath(new URL('contender-process.js', import.meta.url));
  const execArgv = process.execArgv.includes('--expose-gc') ? process.execArgv : [...process.execArgv, '--expose-gc'];
  const child = spawn(process.execPath, [...execArgv, script, key, mode, ...scaleFlags(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench:scale: the ${key} ${mode} process exited with ${code}`));
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve(JSON.parse(last) as T);
    });
  });
}

/** The contenders' child-process keys: the harness, the peer, the floors (the XState skeleton, the bare loop). */
const HARNESS = 'harness';
const PEER = 'ai-generate-text';
const SKELETON = 'skeleton';
const FLOOR = 'bare';

/** The markdown of one mode, harness beside the peer and the floors (those that ran). */
function modeMarkdown(mode: InProcessMode, results: ReadonlyMap<string, object>, options: ScaleOptions): string {
  const of = <T>(): ModeResults<T> => ({
    harness: results.get(HARNESS) as T,
    peer: results.get(PEER) as T | undefined,
    skeleton: results.get(SKELETON) as T | undefined,
    floor: results.get(FLOOR) as T | undefined,
  });
  if (mode === 'burst') {
    const heading = `All ${options.sessions.toLocaleString('en-US')} sessions started in one tick:`;
    return `${heading}\n\n${capacityTable(of<CapacityResult>())}`;
  }
  if (mode === 'staggered') {
    const heading = `Staggered: ${options.arrival.toLocaleString('en-US')} arrivals/s until ${options.sessions.toLocaleString('en-US')} are in flight, each replaced as it ends; ${options.windowMs / 1000} s measured after 1 s:`;
    return `${heading}\n\n${staggeredTable(of<StaggeredResult>())}`;
  }
  return `Staggered, the largest N (≤ ${options.sessions.toLocaleString('en-US')}) held in flight within the lag target:\n\n${maxInFlightLines([...results.values()] as MaxInFlightSummary[])}`;
}

/**
 * In-process capacity: the harness and the cheapest peer configuration (the `ai` SDK's
 * `generateText`), each in its own child process per mode, one after the other, on the same
 * seeded load.
 */
export async function inProcessCapacity(options: ScaleOptions): Promise<SectionReport> {
  const peerReady = existsSync(new URL('peers/node_modules/', benchDir()));
  if (!options.peer) console.error('  peer skipped (--no-peer)');
  else if (!peerReady) console.error('  peer skipped: bench/peers is not installed; run `npm ci --prefix bench/peers`');
  const keys = [HARNESS, ...(options.peer && peerReady ? [PEER] : []), ...(options.floor ? [SKELETON, FLOOR] : [])];
  const parts: string[] = [];
  const all: object[] = [];
  for (const mode of options.modes) {
    const results = new Map<string, object>();
    for (const key of keys) {
      console.error(`in-process capacity: ${key}, ${mode}, ${options.sessions} sessions`);
      results.set(key, { mode, ...(await runChild<object>(key, mode, options)) });
    }
    parts.push(modeMarkdown(mode, results, options));
    all.push(...results.values());
  }
  return {
    title: `In-process capacity, ${options.sessions} sessions`,
    markdown: parts.join('\n\n'),
    results: all,
  };
}
