import { benchDir } from '../support/bench-dir.js';
import { canCollectGarbage } from '../support/measure.js';
import { measureCapacity } from './capacity.js';
import { harnessScaleContender } from './harness-scale.js';
import { defaultLatency } from './latency.js';
import { parseScaleOptions } from './options.js';
import type { ScaleContender, ScaleWorkload } from './scale-workload.js';

/** What `bench/peers/ai-sdk-scale.ts` exports. */
interface PeerModule {
  aiSdkScaleContender(workload: ScaleWorkload): ScaleContender;
}

async function contenderFor(key: string, workload: ScaleWorkload): Promise<ScaleContender> {
  if (key === 'harness') return harnessScaleContender(workload);
  if (key === 'ai-generate-text') {
    // Computed, so that the root type-check does not need the peers' packages.
    const path = new URL('peers/ai-sdk-scale.ts', benchDir()).href;
    return ((await import(path)) as PeerModule).aiSdkScaleContender(workload);
  }
  throw new Error(`bench:scale: unknown contender ${key}`);
}

/**
 * A child process of `bench:scale`: `contender-process.js KEY FLAGS…` runs one contender (so
 * that its RSS is its own) and writes its {@link CapacityResult} as JSON on stdout.
 */
async function main(): Promise<void> {
  const [key = '', ...flags] = process.argv.slice(2);
  if (!canCollectGarbage()) throw new Error('bench:scale: run node with --expose-gc');
  const options = parseScaleOptions(flags);
  const workload: ScaleWorkload = {
    toolTurns: options.toolTurns,
    deltas: options.deltas,
    latency: defaultLatency(options.seed),
  };
  const contender = await contenderFor(key, workload);
  await contender.run(0); // a smoke run: the contender must finish the workload correctly
  const result = await measureCapacity(contender, options.sessions);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
