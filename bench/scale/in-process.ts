import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchDir } from '../support/bench-dir.js';
import type { CapacityResult } from './capacity.js';
import { capacityTable } from './capacity-table.js';
import { type ScaleOptions, scaleFlags } from './options.js';
import type { SectionReport } from './section.js';

/** Runs one contender in a child process of the same node and flags; resolves with its result. */
function runChild(key: string, options: ScaleOptions): Promise<CapacityResult> {
  const script = fileURLToPath(new URL('contender-process.js', import.meta.url));
  const execArgv = process.execArgv.includes('--expose-gc') ? process.execArgv : [...process.execArgv, '--expose-gc'];
  const child = spawn(process.execPath, [...execArgv, script, key, ...scaleFlags(options)], {
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
      if (code !== 0) return reject(new Error(`bench:scale: the ${key} process exited with ${code}`));
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve(JSON.parse(last) as CapacityResult);
    });
  });
}

/**
 * In-process capacity: the harness and the cheapest peer configuration (the `ai` SDK's
 * `generateText`), each in its own child process, one after the other, on the same seeded load.
 */
export async function inProcessCapacity(options: ScaleOptions): Promise<SectionReport> {
  console.error(`in-process capacity: agent-harness, ${options.sessions} sessions`);
  const harness = await runChild('harness', options);
  let peer: CapacityResult | undefined;
  if (!options.peer) {
    console.error('  peer skipped (--no-peer)');
  } else if (!existsSync(new URL('peers/node_modules/', benchDir()))) {
    console.error('  peer skipped: bench/peers is not installed; run `npm ci --prefix bench/peers`');
  } else {
    console.error(`in-process capacity: ai generateText, ${options.sessions} sessions`);
    peer = await runChild('ai-generate-text', options);
  }
  return {
    title: `In-process capacity, ${options.sessions} sessions`,
    markdown: capacityTable(harness, peer),
    results: peer === undefined ? [harness] : [harness, peer],
  };
}
