import type { Contender } from '../contender.js';
import { cpuMicrosPerUnit } from '../support/measure.js';
import type { ResultRow } from '../support/report.js';
import type { BenchSettings } from '../support/settings.js';
import { summarise } from '../support/stats.js';

/** A T whose single run takes longer than this (ms of CPU) is measured by that one run. */
const ONE_RUN_MS = 5_000;

function cpuMsOf(fn: () => Promise<number>): Promise<{ ms: number; turns: number }> {
  const before = process.cpuUsage();
  return fn().then((turns) => {
    const used = process.cpuUsage(before);
    return { ms: (used.user + used.system) / 1000, turns };
  });
}

/** Runs the contender at every T until it has used `ms` of CPU, so the JIT reaches steady state. */
async function warmUp(contender: Contender, turnCounts: readonly number[], ms: number): Promise<void> {
  const small = turnCounts.filter((toolTurns) => toolTurns <= 100);
  for (const toolTurns of small) {
    let used = 0;
    while (used < ms / small.length) used += (await cpuMsOf(() => contender.run(toolTurns))).ms;
  }
}

/**
 * Case 1: CPU µs per model turn at each T, per contender; flags growth from the smallest T.
 * With `perRun` (case 6, the fixed cost: T = 0 and 1), µs per whole run instead.
 */
export async function turnCostCase(
  contenders: readonly Contender[],
  settings: BenchSettings,
  perRun = false,
): Promise<ResultRow[]> {
  const turnCounts = perRun ? settings.fixedCounts : settings.turnCounts;
  const rows: ResultRow[] = [];
  for (const contender of contenders) {
    let smallest: number | undefined;
    await warmUp(contender, turnCounts, settings.warmupMs);
    for (const toolTurns of turnCounts) {
      const label = perRun ? `6 run cost T=${toolTurns}` : `1 turn cost T=${toolTurns}`;
      const probe = await cpuMsOf(() => contender.run(toolTurns));
      const perTurnUs = (probe.ms * 1000) / probe.turns;
      const oneRun = probe.ms > ONE_RUN_MS;
      const unitsPerSample = Math.max(toolTurns + 1, Math.round((settings.sampleMs * 1000) / perTurnUs));
      const figures = oneRun
        ? [perTurnUs]
        : await cpuMicrosPerUnit(() => contender.run(toolTurns), {
            warmup: settings.warmup,
            samples: settings.samples,
            unitsPerSample,
          });
      const summary = summarise(perRun ? figures.map((us) => us * (toolTurns + 1)) : figures);
      smallest ??= summary.median;
      const ratio = summary.median / smallest;
      rows.push({
        case: label,
        impl: contender.name,
        metric: perRun ? 'CPU µs/run' : 'CPU µs/turn',
        summary,
        note:
          [
            perRun || toolTurns === turnCounts[0] ? undefined : `${ratio.toFixed(2)}× T=${turnCounts[0]}`,
            oneRun ? `one run of ${(probe.ms / 1000).toFixed(1)} s` : undefined,
          ]
            .filter((part) => part !== undefined)
            .join('; ') || undefined,
      });
      console.error(`  ${label} ${contender.name}: ${summary.median.toFixed(2)} ${perRun ? 'µs/run' : 'µs/turn'}`);
    }
  }
  // Side by side: every contender at T=10, then at T=100, … (the sort is stable).
  const tOf = (row: ResultRow): number => Number(row.case.slice(row.case.indexOf('T=') + 2));
  return rows.sort((a, b) => tOf(a) - tOf(b));
}
