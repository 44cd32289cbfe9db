import { CAPACITY_TARGETS, type ModeResults, present, verdict } from './capacity-table.js';
import type { StaggeredResult } from './staggered.js';

function number(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Bytes as KB, or `not held` for a figure not measured. */
function kilobytes(bytes: number): string {
  return Number.isNaN(bytes) ? 'not held' : number(bytes / 1024);
}

/** RSS and heap growth per session in flight, CPU per turn and turns a second, of one staggered run. */
export function staggeredFigures(result: StaggeredResult): {
  rssPerSessionBytes: number;
  heapPerSessionBytes: number;
  cpuPerTurnUs: number;
  turnsPerSecond: number;
} {
  // Memory per session only when the window held what was asked: RSS keeps its high-water mark,
  // so growth over a count that fell (a ramp that gave up, sessions ending faster than they
  // arrive) is no figure per session (NaN, shown as "not held").
  const held = result.minInFlight >= result.inFlight;
  return {
    rssPerSessionBytes: held ? result.rssGrowthBytes / result.inFlight : Number.NaN,
    heapPerSessionBytes: held ? result.heapGrowthBytes / result.inFlight : Number.NaN,
    cpuPerTurnUs: result.turns === 0 ? Number.NaN : (1000 * result.cpuMs) / result.turns,
    turnsPerSecond: (1000 * result.turns) / result.windowMs,
  };
}

/** The staggered run's table: steady state after the ramp, harness beside the peer and the floor, targets beside the harness. */
export function staggeredTable(results: ModeResults<StaggeredResult>): string {
  const { harness, peer } = results;
  const contenders = present(results);
  const figures = contenders.map(staggeredFigures);
  const own = staggeredFigures(harness);
  const lines = [
    `| steady state (window after the ramp) | ${contenders.map((c) => c.contender).join(' | ')} | target |`,
    `| --- | ${contenders.map(() => '---:').join(' | ')} | --- |`,
  ];
  const row = (measure: string, cells: string[], target = ''): void => {
    lines.push(`| ${measure} | ${cells.join(' | ')} | ${target} |`);
  };
  row(
    'sessions in flight (fewest sampled)',
    contenders.map((c) => `${c.inFlight.toLocaleString('en-US')} (${c.minInFlight.toLocaleString('en-US')})`),
  );
  row(
    'ramp: arrivals/s, s to reach',
    contenders.map((c) => `${c.arrivalPerSecond.toLocaleString('en-US')}, ${number(c.rampMs / 1000, 2)}`),
  );
  row(
    'turns/s in the window',
    figures.map((f) => number(f.turnsPerSecond, 0)),
  );
  row(
    'RSS per in-flight session, KB',
    figures.map((f) => kilobytes(f.rssPerSessionBytes)),
    Number.isNaN(own.rssPerSessionBytes)
      ? `≤ ${CAPACITY_TARGETS.bytesPerSession / 1024} KB: not measured (${harness.inFlight.toLocaleString('en-US')} not held)`
      : verdict(own.rssPerSessionBytes / 1024, CAPACITY_TARGETS.bytesPerSession / 1024, true, ' KB'),
  );
  row(
    'heapUsed per in-flight session, KB',
    figures.map((f) => kilobytes(f.heapPerSessionBytes)),
  );
  row(
    'event-loop lag p99, ms',
    contenders.map((c) => (c.lagSamples === 0 ? `no sample in ${number(c.windowMs / 1000)} s` : number(c.lag.p99))),
    harness.lagSamples === 0
      ? `≤ ${CAPACITY_TARGETS.lagP99Ms} ms ❌ (its 1 ms timer fired at most once in the window)`
      : verdict(harness.lag.p99, CAPACITY_TARGETS.lagP99Ms, true, ' ms'),
  );
  row(
    'event-loop lag p50 / max, ms',
    contenders.map((c) => (c.lagSamples === 0 ? '–' : `${number(c.lag.p50)} / ${number(c.lag.max)}`)),
  );
  row(
    'CPU per turn, µs',
    figures.map((f) => number(f.cpuPerTurnUs)),
  );
  if (peer !== undefined) {
    const ratio = staggeredFigures(peer).cpuPerTurnUs / own.cpuPerTurnUs;
    row(
      'peer CPU per turn / harness',
      contenders.map((c) => (c === peer ? `${number(ratio, 2)}×` : '')),
      verdict(ratio, CAPACITY_TARGETS.peerCpuRatio, false, '×'),
    );
  }
  return lines.join('\n');
}

/** What the `max-n` mode reports per contender (see `contender-process.ts`). */
export interface MaxInFlightSummary {
  readonly contender: string;
  readonly largest: number;
  readonly limit: number;
  readonly probes: readonly { readonly n: number; readonly passed: boolean; readonly detail: StaggeredResult }[];
}

/** One line per contender: the largest N within the lag target, and the probes (N: p99 ms). */
export function maxInFlightLines(results: readonly MaxInFlightSummary[]): string {
  return results
    .map((r) => {
      const probes = r.probes
        .map(
          (p) =>
            `${p.n}: ${number(p.detail.lag.p99)}${p.detail.lagSamples === 0 ? ' (no sample)' : ''}${p.passed ? ' ✓' : ' ✗'}`,
        )
        .join(', ');
      const largest =
        r.largest >= r.limit ? `≥ ${r.limit.toLocaleString('en-US')} (the limit)` : r.largest.toLocaleString('en-US');
      return `- ${r.contender}: largest N in flight with steady p99 lag ≤ ${CAPACITY_TARGETS.lagP99Ms} ms: **${largest}** (probes, N: p99 ms: ${probes})`;
    })
    .join('\n');
}
