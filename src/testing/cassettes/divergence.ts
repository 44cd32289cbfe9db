import { jsonDiff } from './json-diff.js';

/** What differed between a replay and its recording. */
export type DivergenceKind =
  | 'request messages'
  | 'tools offered'
  | 'wire request'
  | 'tool call'
  | 'tool result'
  | 'stop reason'
  | 'transition'
  | 'journal entry'
  | 'extra request'
  | 'recording ended';

/** Where a divergence happened, in the new run. */
export interface CassetteStep {
  /** The model turn (1 for the first request; 0 before it). */
  readonly turn: number;
  /** The index of the journal entry it concerns (for a request: its `turn_start`). */
  readonly entryIndex: number;
  /** The machine state at that point (the last transition's target; `''` before the first). */
  readonly state: string;
}

/** One difference between the recording and the new run. */
export interface Divergence {
  /** Where. */
  readonly step: CassetteStep;
  /** What kind of step differed. */
  readonly kind: DivergenceKind;
  /** What the recording holds there (`undefined` when it holds nothing). */
  readonly expected: unknown;
  /** What the new run did there (`undefined` when it did nothing). */
  readonly actual: unknown;
  /** One line saying what happened. */
  readonly message: string;
  /** A readable diff of `expected` and `actual`: one block per differing path. */
  readonly diff: string;
}

/** What {@link replayCassette} found. */
export interface CassetteReport {
  /** Whether the new run matched the recording. */
  readonly ok: boolean;
  /** The first divergence, by step. */
  readonly divergence?: Divergence;
  /** With `continueOnDivergence`: every divergence, in step order. */
  readonly divergences?: readonly Divergence[];
}

/** Makes a {@link Divergence}, with its diff. */
export function divergence(
  step: CassetteStep,
  kind: DivergenceKind,
  expected: unknown,
  actual: unknown,
  message: string,
): Divergence {
  return { step, kind, expected, actual, message, diff: jsonDiff(expected, actual) };
}

/** One divergence as text: where, what, and the diff. */
export function formatDivergence(found: Divergence): string {
  const { turn, entryIndex, state } = found.step;
  const where = `step ${entryIndex} (journal entry ${entryIndex}, turn ${turn}${state === '' ? '' : `, state ${state}`})`;
  const head = `${found.kind} diverged at ${where}: ${found.message}`;
  return found.diff === '' ? head : `${head}\n${found.diff}`;
}

/** A report as text: `cassette: ok`, or each divergence (the first only, unless all were kept). */
export function formatCassetteReport(report: CassetteReport): string {
  if (report.ok) return 'cassette: ok, the run matched the recording';
  const all = report.divergences ?? (report.divergence === undefined ? [] : [report.divergence]);
  const count = all.length === 1 ? '1 divergence' : `${all.length} divergences`;
  return [`cassette: ${count}`, ...all.map(formatDivergence)].join('\n');
}
