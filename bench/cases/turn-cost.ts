import type { Contender } from '../contender.js';
import { cpuMicrosPerUnit } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

/** Longest a single calibration run may take before a contender skips that T (ms of CPU). */
const MAX_RUN_MS = 15_000;

function cpuMsOf(fn: () => Promise<number>): Promise<{ ms: number; turns: number }> {
  const before = process.cpuUsage();
  return fn().then((turns) => {
    const used = process.cpuUsage(before);
    return { ms: (used.user + used.system) / 1000, turns };
  });
}

/** Runs the contender at every T until it has used `ms` of CPU, so the JIT reaches steady state. */
async function warmUp(contender: Contender, turnCounts: readonly number[], ms: number): Promise<void> {
  for (const toolTurns of turnCounts) {
    let used = 0;
    while (used < ms / turnCounts.length) {
      const probe = await cpuMsOf(() => contender.run(toolTurns));
      if (probe.ms > MAX_RUN_MS) break;
      used += probe.ms;
    }
  }
}

/** Case 1: CPU µs per model turn at each T, per contender; flags growth from the smallest T. */
export async function turnCostCase(contenders: readonly Contender[], settings: BenchSettings): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const contender of contenders) {
    let smallest: number | undefined;
    await warmUp(contender, settings.turnCounts, settings.warmupMs);
    for (const toolTurns of settings.turnCounts) {
      const label = `1 turn cost T=${toolTurns}`;
      const probe = await cpuMsOf(() => contender.run(toolTurns));
      if (probe.ms > MAX_RUN_MS) {
        console.error(`  ${contender.name}: one run at T=${toolTurns} took ${probe.ms.toFixed(0)} ms CPU; skipping`);
        continue;
      }
      const perTurnUs = (probe.ms * 1000) / probe.turns;
      const unitsPerSample = Math.max(toolTurns + 1, Math.round((settings.sampleMs * 1000) / perTurnUs));
      const figures = await cpuMicrosPerUnit(() => contender.run(toolTurns), {
        warmup: settings.warmup,
        samples: settings.samples,
        unitsPerSample,
      });
      const summary = summarise(figures);
      smallest ??= summary.median;
      const isHarness = contender.name === 'agent-harness';
      const ratio = summary.median / smallest;
      rows.push({
        case: label,
        impl: contender.name,
        metric: 'CPU µs/turn',
        summary,
        ...(isHarness ? { target: '≤ 50', met: summary.median <= 50 } : {}),
        note: toolTurns === settings.turnCounts[0] ? undefined : `${ratio.toFixed(2)}× T=${settings.turnCounts[0]}`,
      });
      console.error(`  ${label} ${contender.name}: ${summary.median.toFixed(2)} µs/turn`);
    }
  }
  return rows;
}
