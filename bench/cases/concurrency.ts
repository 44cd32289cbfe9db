import type { Contender } from '../contender.js';
import { collectGarbage } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

const TOOL_TURNS = 10;
const MB = 1024 * 1024;

interface Batch {
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssMb: number;
}

/**
 * Runs `sessions` sessions of T=10 at once with `Promise.all`; returns wall ms and the peak RSS
 * growth over the RSS before the batch (sampled as sessions finish, since nothing else runs).
 */
async function batch(contender: Contender, sessions: number): Promise<Batch> {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sample = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
  };
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: sessions }, (_, i) =>
      contender.run(TOOL_TURNS).then((turns) => {
        if (i % 50 === 0) sample();
        return turns;
      }),
    ),
  );
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  sample();
  return { ms, cpuMs: (used.user + used.system) / 1000, rssMb: (peak - baseline) / MB };
}

/** Case 2: `sessions` concurrent sessions of T=10: wall time, CPU time and peak RSS growth. */
export async function concurrencyCase(contenders: readonly Contender[], settings: BenchSettings): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  const label = `2 ${settings.sessions}×T=${TOOL_TURNS} concurrent`;
  for (const contender of contenders) {
    await batch(contender, settings.sessions / 10); // warm-up
    const results: Batch[] = [];
    for (let i = 0; i < settings.batchSamples; i++) results.push(await batch(contender, settings.sessions));
    const isHarness = contender.name === 'agent-harness';
    const ms = summarise(results.map((r) => r.ms));
    rows.push({
      case: label,
      impl: contender.name,
      metric: 'wall ms',
      summary: ms,
      ...(isHarness ? { target: '< 500', met: ms.median < 500 } : {}),
    });
    rows.push({ case: label, impl: contender.name, metric: 'CPU ms', summary: summarise(results.map((r) => r.cpuMs)) });
    rows.push({
      case: label,
      impl: contender.name,
      metric: 'peak RSS growth MB',
      summary: summarise(results.map((r) => r.rssMb)),
    });
    console.error(`  ${label} ${contender.name}: ${ms.median.toFixed(0)} ms`);
  }
  return rows;
}
