import type { Summary } from './stats.js';

/** One row of the results table. */
export interface ResultRow {
  /** The case number and name, e.g. `1 turn cost T=100`. */
  readonly case: string;
  /** `agent-harness`, `bare loop`, or a peer library. */
  readonly impl: string;
  /** What is measured, with its unit. */
  readonly metric: string;
  readonly summary: Summary;
  /** The target, as text, when the issue sets one. */
  readonly target?: string;
  /** Whether the median meets the target, when there is one. */
  readonly met?: boolean;
  /** Anything a reader needs to read the row right. */
  readonly note?: string;
}

function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100_000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function targetCell(row: ResultRow): string {
  if (row.target === undefined) return '';
  if (row.met === undefined) return row.target;
  return `${row.target} ${row.met ? '✅' : '❌'}`;
}

/** The rows as a markdown table: median and min–max per row. */
export function markdownTable(rows: readonly ResultRow[]): string {
  const lines = [
    '| case | implementation | metric | median | min–max | target |',
    '| --- | --- | --- | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const { median, min, max } = row.summary;
    const metric = row.note === undefined ? row.metric : `${row.metric} (${row.note})`;
    lines.push(
      `| ${row.case} | ${row.impl} | ${metric} | ${formatNumber(median)} | ${formatNumber(min)}–${formatNumber(max)} | ${targetCell(row)} |`,
    );
  }
  return lines.join('\n');
}
