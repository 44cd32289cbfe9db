import type { Contender } from '../contender.js';
import { allocatedBytes } from '../support/allocation.js';
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

function runAll(contender: Contender, sessions: number, onFinish: () => void): Promise<unknown> {
  return Promise.all(
    Array.from({ length: sessions }, (_, i) =>
      contender.run(TOOL_TURNS).then((turns) => {
        if (i % 50 === 0) onFinish();
        return turns;
      }),
    ),
  );
}

/**
 * Runs `sessions` sessions of T=10 at once with `Promise.all`; returns wall ms, CPU ms and the
 * peak RSS growth over the RSS after a full collection (sampled as sessions finish, since
 * nothing else runs). Between that collection and the timed batch, a batch a tenth the size
 * runs untimed: right after `gc()` V8 runs slower until its young generation has grown back
 * (docs/performance.md, Method), and case 1 does not force collections either. Its garbage counts in the RSS growth, which errs high.
 */
async function batch(contender: Contender, sessions: number): Promise<Batch> {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sample = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
  };
  await runAll(contender, Math.max(1, sessions / 10), sample);
  const start = performance.now();
  const cpu = process.cpuUsage();
  await runAll(contender, sessions, sample);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  sample();
  return { ms, cpuMs: (used.user + used.system) / 1000, rssMb: (peak - baseline) / MB };
}

/**
 * Case 2: `sessions` concurrent sessions of T=10: wall time, CPU time and peak RSS growth; with
 * `allocation`, also the heap allocated per model turn (one more batch, under V8's sampling heap
 * profiler, garbage included).
 */
export async function concurrencyCase(
  contenders: readonly Contender[],
  settings: BenchSettings,
  allocation = false,
): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  const label = `2 ${settings.sessions}×T=${TOOL_TURNS} concurrent`;
  for (const contender of contenders) {
    await batch(contender, settings.sessions / 10); // warm-up
    const results: Batch[] = [];
    for (let i = 0; i < settings.batchSamples; i++) results.push(await batch(contender, settings.sessions));
    const ms = summarise(results.map((r) => r.ms));
    rows.push({ case: label, impl: contender.name, metric: 'wall ms', summary: ms });
    rows.push({ case: label, impl: contender.name, metric: 'CPU ms', summary: summarise(results.map((r) => r.cpuMs)) });
    rows.push({
      case: label,
      impl: contender.name,
      metric: 'peak RSS growth MB',
      summary: summarise(results.map((r) => r.rssMb)),
    });
    if (allocation) {
      const bytes = await allocatedBytes(() => runAll(contender, settings.sessions, () => {}));
      const perTurn = bytes / (settings.sessions * (TOOL_TURNS + 1));
      rows.push({
        case: label,
        impl: contender.name,
        metric: 'KB allocated/turn (sampling heap profiler, garbage included)',
        summary: summarise([perTurn / 1024]),
      });
    }
    console.error(`  ${label} ${contender.name}: ${ms.median.toFixed(0)} ms`);
  }
  return rows;
}
