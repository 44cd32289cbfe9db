import type { ResultRow } from './report.js';
import { summarise } from './stats.js';

/** A peer's streaming entry point (the expensive configuration), told apart by its name. */
export function isStreamingPeer(impl: string): boolean {
  return /stream|langgraph/i.test(impl);
}

const OWN = new Set(['agent-harness', 'bare loop', 'agentMachine alone', 'XState skeleton']);

interface Line {
  readonly measure: string;
  readonly harness: number;
  readonly skeleton: number | undefined;
  readonly bySkeleton: number | undefined;
  readonly skeletonTarget?: number;
  readonly cheapest: { impl: string; median: number } | undefined;
  readonly cheapestStreaming: { impl: string; median: number } | undefined;
  readonly peerTarget?: number;
}

function rowOf(rows: readonly ResultRow[], caseName: string, impl: string, metric: string): ResultRow | undefined {
  return rows.find((row) => row.case === caseName && row.impl === impl && row.metric === metric);
}

function medianOf(rows: readonly ResultRow[], caseName: string, impl: string, metric: string): number | undefined {
  return rowOf(rows, caseName, impl, metric)?.summary.median;
}

/**
 * The harness against the skeleton: the median of their sample-by-sample ratios when the two were
 * sampled in the same rounds (case 1 and 6 interleave them, see turn-cost.ts), which cancels the
 * machine's drift; otherwise the ratio of their medians.
 */
function harnessBySkeleton(rows: readonly ResultRow[], caseName: string, metric: string): number | undefined {
  const harness = rowOf(rows, caseName, 'agent-harness', metric)?.summary;
  const skeleton = rowOf(rows, caseName, 'XState skeleton', metric)?.summary;
  if (harness === undefined || skeleton === undefined) return undefined;
  if (harness.samples.length < 2 || harness.samples.length !== skeleton.samples.length) {
    return harness.median / skeleton.median;
  }
  return summarise(harness.samples.map((value, i) => value / (skeleton.samples[i] as number))).median;
}

function cheapestOf(rows: readonly ResultRow[], caseName: string, metric: string, streaming: boolean) {
  let best: { impl: string; median: number } | undefined;
  for (const row of rows) {
    if (row.case !== caseName || row.metric !== metric || OWN.has(row.impl)) continue;
    if (isStreamingPeer(row.impl) !== streaming && streaming) continue;
    if (best === undefined || row.summary.median < best.median) best = { impl: row.impl, median: row.summary.median };
  }
  return best;
}

function times(value: number): string {
  return `${value.toFixed(2)}×`;
}

function check(value: number, target: number | undefined, atMost: boolean): string {
  if (target === undefined) return times(value);
  const met = atMost ? value <= target : value >= target;
  return `${times(value)} ${met ? '✅' : '❌'} (${atMost ? '≤' : '≥'} ${target}×)`;
}

/**
 * The ratios issue 17 sets targets for, from one run's rows: the harness against the XState
 * skeleton (lower is better) and the cheapest peer against the harness (higher is better),
 * against every peer and against the streaming entry points only; plus the fixed cost of a run.
 */
export function ratioTable(rows: readonly ResultRow[]): string {
  const lines: Line[] = [];
  const add = (measure: string, caseName: string, metric: string, skeletonTarget?: number, peerTarget?: number) => {
    const harness = medianOf(rows, caseName, 'agent-harness', metric);
    if (harness === undefined) return;
    lines.push({
      measure,
      harness,
      skeleton: medianOf(rows, caseName, 'XState skeleton', metric),
      bySkeleton: harnessBySkeleton(rows, caseName, metric),
      skeletonTarget,
      cheapest: cheapestOf(rows, caseName, metric, false),
      cheapestStreaming: cheapestOf(rows, caseName, metric, true),
      peerTarget,
    });
  };
  add('run, T=0 (µs/run)', '6 run cost T=0', 'CPU µs/run');
  add('run, T=1 (µs/run)', '6 run cost T=1', 'CPU µs/run');
  add('per turn, T=10 (µs)', '1 turn cost T=10', 'CPU µs/turn', 1.2, 5);
  add('per turn, T=100 (µs)', '1 turn cost T=100', 'CPU µs/turn', 1.2, 10);
  add('per turn, T=1000 (µs)', '1 turn cost T=1000', 'CPU µs/turn', 1.2);
  const concurrent = rows.find((row) => row.case.startsWith('2 ') && row.metric === 'wall ms')?.case;
  if (concurrent !== undefined) {
    add('1000×T=10 concurrent (wall ms)', concurrent, 'wall ms', 1.3, 4);
    add('1000×T=10 concurrent (CPU ms)', concurrent, 'CPU ms');
  }
  const out = [
    '| measure | agent-harness | XState skeleton | harness / skeleton | cheapest peer | cheapest peer / harness | cheapest streaming peer | streaming / harness |',
    '| --- | ---: | ---: | --- | --- | --- | --- | --- |',
  ];
  for (const line of lines) {
    const skeleton = line.skeleton === undefined ? '' : line.skeleton.toFixed(1);
    const bySkeleton = line.bySkeleton === undefined ? '' : check(line.bySkeleton, line.skeletonTarget, true);
    const peer = line.cheapest;
    const streaming = line.cheapestStreaming;
    out.push(
      `| ${line.measure} | ${line.harness.toFixed(1)} | ${skeleton} | ${bySkeleton} | ${peer ? `${peer.impl} ${peer.median.toFixed(0)}` : ''} | ${peer ? check(peer.median / line.harness, line.peerTarget, false) : ''} | ${streaming ? `${streaming.impl} ${streaming.median.toFixed(0)}` : ''} | ${streaming ? times(streaming.median / line.harness) : ''} |`,
    );
  }
  const fixed = fixedCosts(rows);
  if (fixed.length > 0) out.push('', ...fixed);
  return out.join('\n');
}

/**
 * The fixed cost of a run, F, from run(T=0) = F + c and the per-turn cost at T = 100,
 * (F + 101 c) / 101: c = (101 · perTurn(100) − run(0)) / 100, F = run(0) − c.
 */
function fixedCosts(rows: readonly ResultRow[]): string[] {
  const out: string[] = [];
  for (const impl of ['agent-harness', 'agentMachine alone', 'XState skeleton']) {
    const run0 = medianOf(rows, '6 run cost T=0', impl, 'CPU µs/run');
    const perTurn100 = medianOf(rows, '1 turn cost T=100', impl, 'CPU µs/turn');
    if (run0 === undefined || perTurn100 === undefined) continue;
    const perTurn = (101 * perTurn100 - run0) / 100;
    out.push(
      `- ${impl}: fixed cost per run ≈ ${(run0 - perTurn).toFixed(1)} µs, marginal cost per turn ≈ ${perTurn.toFixed(1)} µs`,
    );
  }
  return out;
}
