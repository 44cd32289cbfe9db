import type { CapacityResult } from './capacity.js';

/** The targets issue 30 sets for one worker process. */
export const CAPACITY_TARGETS = {
  /** The event loop's p99 lag, ms. */
  lagP99Ms: 20,
  /** RSS per in-flight session, bytes. */
  bytesPerSession: 20 * 1024,
  /** The peer's CPU per turn over the harness's. */
  peerCpuRatio: 3,
} as const;

/** Derived per-session and per-turn figures of one result. */
export interface CapacityFigures {
  readonly rssPerSessionBytes: number;
  readonly heapPerSessionBytes: number;
  readonly cpuPerTurnUs: number;
}

/** RSS and heap growth per in-flight session, CPU per turn. */
export function capacityFigures(result: CapacityResult): CapacityFigures {
  return {
    rssPerSessionBytes: result.rssGrowthBytes / result.peakInFlight,
    heapPerSessionBytes: result.heapGrowthBytes / result.peakInFlight,
    cpuPerTurnUs: (1000 * result.cpuMs) / result.turns,
  };
}

function number(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `≤ 20 ✅`, or `≤ 20 ❌ (1.5× over)` / `≥ 3 ❌ (0.8×)` when missed. */
export function verdict(value: number, target: number, atMost: boolean, unit: string): string {
  const bound = `${atMost ? '≤' : '≥'} ${target}${unit}`;
  if (atMost ? value <= target : value >= target) return `${bound} ✅`;
  return `${bound} ❌ (${number(value / target, 2)}× ${atMost ? 'the target' : 'of the target'})`;
}

/**
 * The results of one mode, when they ran: the harness, the peer, and the two floors: the XState
 * skeleton (the machine the brief requires, doing nothing else) and the bare loop (no machine).
 */
export interface ModeResults<T> {
  readonly harness: T;
  readonly peer?: T | undefined;
  readonly skeleton?: T | undefined;
  readonly floor?: T | undefined;
}

/** The results that ran, harness first, then the peer, the skeleton and the bare loop. */
export function present<T>({ harness, peer, skeleton, floor }: ModeResults<T>): T[] {
  return [harness, ...[peer, skeleton, floor].filter((result): result is T => result !== undefined)];
}

/**
 * The section's markdown table: one column per contender, the target beside the harness's
 * figure (the peer ratio, when a peer ran, in its own row).
 */
export function capacityTable(results: ModeResults<CapacityResult>): string {
  const { harness, peer } = results;
  const contenders = present(results);
  const figures = contenders.map(capacityFigures);
  const own = figures[0] as CapacityFigures;
  const lines = [
    `| measure | ${contenders.map((c) => c.contender).join(' | ')} | target |`,
    `| --- | ${contenders.map(() => '---:').join(' | ')} | --- |`,
  ];
  const row = (measure: string, cells: string[], target = ''): void => {
    lines.push(`| ${measure} | ${cells.join(' | ')} | ${target} |`);
  };
  row(
    'sessions in flight at once',
    contenders.map((c) => c.peakInFlight.toLocaleString('en-US')),
  );
  row(
    'model turns',
    contenders.map((c) => c.turns.toLocaleString('en-US')),
  );
  row(
    'wall s',
    contenders.map((c) => number(c.wallMs / 1000, 2)),
  );
  const kb = own.rssPerSessionBytes / 1024;
  row(
    'RSS per in-flight session, KB',
    figures.map((f) => number(f.rssPerSessionBytes / 1024)),
    verdict(kb, CAPACITY_TARGETS.bytesPerSession / 1024, true, ' KB'),
  );
  row(
    'heapUsed per in-flight session, KB',
    figures.map((f) => number(f.heapPerSessionBytes / 1024)),
  );
  row(
    'event-loop lag p99, ms',
    contenders.map((c) => number(c.lag.p99)),
    verdict(harness.lag.p99, CAPACITY_TARGETS.lagP99Ms, true, ' ms'),
  );
  row(
    'event-loop lag p50 / max, ms',
    contenders.map((c) => `${number(c.lag.p50)} / ${number(c.lag.max)}`),
  );
  row(
    'CPU per turn, µs',
    figures.map((f) => number(f.cpuPerTurnUs)),
  );
  if (peer !== undefined) {
    const ratio = capacityFigures(peer).cpuPerTurnUs / own.cpuPerTurnUs;
    row(
      'peer CPU per turn / harness',
      contenders.map((c) => (c === peer ? `${number(ratio, 2)}×` : '')),
      verdict(ratio, CAPACITY_TARGETS.peerCpuRatio, false, '×'),
    );
    if (results.skeleton !== undefined) {
      const ceiling = capacityFigures(peer).cpuPerTurnUs / capacityFigures(results.skeleton).cpuPerTurnUs;
      row(
        'peer CPU per turn / XState skeleton (the ceiling of a loop on XState)',
        contenders.map((c) => (c === results.skeleton ? `${number(ceiling, 2)}×` : '')),
      );
    }
  }
  return lines.join('\n');
}
