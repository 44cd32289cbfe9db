import { quantile } from '../support/stats.js';
import { verdict } from './capacity-table.js';
import type { RunLoad } from './restate-load.js';
import { rssPerInFlight, type WorkerReport } from './restate-worker-report.js';

/** The target issue 30 sets: the harness's p50 step overhead over the bare `ctx.run` p50. */
export const RESTATE_STEP_RATIO_TARGET = 2;

/** What one worker count measured, as the bench collected it. */
export interface RestateRaw {
  readonly workers: number;
  /** Runs kept in flight across all workers. */
  readonly inFlight: number;
  readonly turnsPerRun: number;
  readonly load: RunLoad;
  /** One report per worker, over the measured load (the bare service ran beside the runs). */
  readonly reports: readonly WorkerReport[];
  /** Bare `ctx.run` steps timed with nothing else running, ms. */
  readonly bareAloneMs: readonly number[];
  /** The agent's step overheads with one run at a time and nothing else running, ms. */
  readonly stepAloneMs: readonly number[];
}

/** The figures of one worker count. */
export interface RestateFigures {
  readonly workers: number;
  readonly inFlight: number;
  readonly runs: number;
  readonly turns: number;
  readonly wallMs: number;
  readonly turnsPerSecond: number;
  readonly runP50Ms: number;
  readonly runP99Ms: number;
  /** Live agent steps measured, and the p50/p99 of what each took beyond its action. */
  readonly steps: number;
  readonly stepP50Ms: number;
  readonly stepP99Ms: number;
  readonly bareSteps: number;
  readonly bareP50Ms: number;
  readonly bareP99Ms: number;
  readonly bareAloneP50Ms: number;
  readonly bareAloneP99Ms: number;
  readonly stepAloneP50Ms: number;
  readonly stepAloneP99Ms: number;
  /** stepP50Ms / bareP50Ms: the target's ratio. */
  readonly stepRatio: number;
  /** stepAloneP50Ms / bareAloneP50Ms. */
  readonly stepAloneRatio: number;
  /** RSS growth per in-flight run, per worker (bytes; null: no run was in flight on it), in worker order. */
  readonly rssPerRunBytes: readonly (number | null)[];
  /** All workers' CPU ÷ model turns, µs. */
  readonly workerCpuPerTurnUs: number;
  /** Agent executions each worker ran. */
  readonly executions: readonly number[];
  readonly replayedSteps: number;
}

/** Percentiles and ratios of one worker count's raw measurements. */
export function restateFigures(raw: RestateRaw): RestateFigures {
  const steps = raw.reports.flatMap((report) => report.stepOverheadMs);
  const bare = raw.reports.flatMap((report) => report.bareStepMs);
  const turns = raw.load.runs * raw.turnsPerRun;
  const stepP50Ms = quantile(steps, 0.5);
  const bareP50Ms = quantile(bare, 0.5);
  return {
    workers: raw.workers,
    inFlight: raw.inFlight,
    runs: raw.load.runs,
    turns,
    wallMs: raw.load.wallMs,
    turnsPerSecond: turns / (raw.load.wallMs / 1000),
    runP50Ms: quantile(raw.load.runMs, 0.5),
    runP99Ms: quantile(raw.load.runMs, 0.99),
    steps: steps.length,
    stepP50Ms,
    stepP99Ms: quantile(steps, 0.99),
    bareSteps: bare.length,
    bareP50Ms,
    bareP99Ms: quantile(bare, 0.99),
    bareAloneP50Ms: quantile(raw.bareAloneMs, 0.5),
    bareAloneP99Ms: quantile(raw.bareAloneMs, 0.99),
    stepAloneP50Ms: quantile(raw.stepAloneMs, 0.5),
    stepAloneP99Ms: quantile(raw.stepAloneMs, 0.99),
    stepRatio: stepP50Ms / bareP50Ms,
    stepAloneRatio: quantile(raw.stepAloneMs, 0.5) / quantile(raw.bareAloneMs, 0.5),
    rssPerRunBytes: raw.reports.map((report) => rssPerInFlight(report) ?? null),
    workerCpuPerTurnUs: (1000 * raw.reports.reduce((sum, report) => sum + report.cpuMs, 0)) / turns,
    executions: raw.reports.map((report) => report.executions),
    replayedSteps: raw.reports.reduce((sum, report) => sum + report.replayedSteps, 0),
  };
}

function fixed(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function pair(a: number, b: number, digits = 1): string {
  return `${fixed(a, digits)} / ${fixed(b, digits)}`;
}

/** The markdown table: one column per worker count, the step-overhead target in each cell. */
export function restateTable(all: readonly RestateFigures[]): string {
  const lines = [
    `| measure | ${all.map((f) => `${f.workers} worker${f.workers === 1 ? '' : 's'}`).join(' | ')} |`,
    `| --- | ${all.map(() => '---:').join(' | ')} |`,
  ];
  const row = (measure: string, cell: (f: RestateFigures) => string): void => {
    lines.push(`| ${measure} | ${all.map(cell).join(' | ')} |`);
  };
  row('runs in flight (per worker)', (f) => `${f.inFlight} (${fixed(f.inFlight / f.workers, 0)})`);
  row('runs / model turns / wall s', (f) => `${f.runs} / ${f.turns} / ${fixed(f.wallMs / 1000, 2)}`);
  row('throughput, turns/s', (f) => fixed(f.turnsPerSecond));
  row('run p50 / p99, ms (submit → outcome)', (f) => pair(f.runP50Ms, f.runP99Ms, 0));
  row('harness step overhead p50 / p99, ms', (f) => pair(f.stepP50Ms, f.stepP99Ms, 2));
  row('bare `ctx.run` p50 / p99, ms (same run)', (f) => pair(f.bareP50Ms, f.bareP99Ms, 2));
  row(
    'harness p50 / bare p50',
    (f) => `${fixed(f.stepRatio, 2)}×: ${verdict(f.stepRatio, RESTATE_STEP_RATIO_TARGET, true, '×')}`,
  );
  row('alone: harness step overhead p50 / p99, ms', (f) => pair(f.stepAloneP50Ms, f.stepAloneP99Ms, 2));
  row('alone: bare `ctx.run` p50 / p99, ms', (f) => pair(f.bareAloneP50Ms, f.bareAloneP99Ms, 2));
  row('alone: harness p50 / bare p50', (f) => `${fixed(f.stepAloneRatio, 2)}×`);
  row('RSS per in-flight run, KB (per worker)', (f) =>
    f.rssPerRunBytes.map((b) => (b === null ? '–' : fixed(b / 1024, 0))).join(' / '),
  );
  row('worker CPU per turn, µs (all workers)', (f) => fixed(f.workerCpuPerTurnUs, 0));
  row('executions per worker', (f) => f.executions.join(' / '));
  return lines.join('\n');
}
