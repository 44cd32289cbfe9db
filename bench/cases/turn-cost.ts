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

/** What a contender's first run at one T says about how to sample it. */
interface Probe {
  readonly contender: Contender;
  readonly perTurnUs: number;
  readonly oneRunMs: number | undefined;
  readonly unitsPerSample: number;
}

/**
 * Case 1: CPU µs per model turn at each T, per contender; flags growth from the smallest T.
 * With `perRun` (case 6, the fixed cost: T = 0 and 1), µs per whole run instead.
 *
 * The contenders are sampled in rounds, one sample each per round, in an order that rotates from
 * round to round: sample i of every contender is taken within the same few hundred milliseconds,
 * so a ratio of two contenders can be taken sample by sample (see ratios.ts) and the machine's
 * drift cancels out (docs/performance.md, Method).
 */
export async function turnCostCase(
  contenders: readonly Contender[],
  settings: BenchSettings,
  perRun = false,
): Promise<ResultRow[]> {
  const turnCounts = perRun ? settings.fixedCounts : settings.turnCounts;
  for (const contender of contenders) await warmUp(contender, turnCounts, settings.warmupMs);
  const rows: ResultRow[] = [];
  const smallest = new Map<Contender, number>();
  for (const toolTurns of turnCounts) {
    const label = perRun ? `6 run cost T=${toolTurns}` : `1 turn cost T=${toolTurns}`;
    const probes: Probe[] = [];
    for (const contender of contenders) {
      const probe = await cpuMsOf(() => contender.run(toolTurns));
      const perTurnUs = (probe.ms * 1000) / probe.turns;
      probes.push({
        contender,
        perTurnUs,
        oneRunMs: probe.ms > ONE_RUN_MS ? probe.ms : undefined,
        unitsPerSample: Math.max(toolTurns + 1, Math.round((settings.sampleMs * 1000) / perTurnUs)),
      });
    }
    const figures = new Map<Contender, number[]>(probes.map((probe) => [probe.contender, []]));
    const sampled = probes.filter((probe) => probe.oneRunMs === undefined);
    for (let round = 0; round < settings.warmup + settings.samples; round++) {
      for (let k = 0; k < sampled.length; k++) {
        const { contender, unitsPerSample } = sampled[(round + k) % sampled.length] as Probe;
        const [figure] = await cpuMicrosPerUnit(() => contender.run(toolTurns), {
          warmup: 0,
          samples: 1,
          unitsPerSample,
        });
        if (round >= settings.warmup) figures.get(contender)?.push(figure as number);
      }
    }
    for (const { contender, perTurnUs, oneRunMs } of probes) {
      const perUnit = oneRunMs === undefined ? (figures.get(contender) as number[]) : [perTurnUs];
      const summary = summarise(perRun ? perUnit.map((us) => us * (toolTurns + 1)) : perUnit);
      if (!smallest.has(contender)) smallest.set(contender, summary.median);
      const ratio = summary.median / (smallest.get(contender) as number);
      rows.push({
        case: label,
        impl: contender.name,
        metric: perRun ? 'CPU µs/run' : 'CPU µs/turn',
        summary,
        note:
          [
            perRun || toolTurns === turnCounts[0] ? undefined : `${ratio.toFixed(2)}× T=${turnCounts[0]}`,
            oneRunMs === undefined ? undefined : `one run of ${(oneRunMs / 1000).toFixed(1)} s`,
          ]
            .filter((part) => part !== undefined)
            .join('; ') || undefined,
      });
      console.error(`  ${label} ${contender.name}: ${summary.median.toFixed(2)} ${perRun ? 'µs/run' : 'µs/turn'}`);
    }
  }
  return rows;
}
