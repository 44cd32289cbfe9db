import type { JournalEntry } from '../../core/journal-entry.js';
import { type CassetteStep, type Divergence, type DivergenceKind, divergence } from './divergence.js';
import { jsonEqual } from './json-equal.js';
import { parseJsonPath, withoutPaths } from './json-paths.js';

/** Decides whether a step of the new run matches the recorded one (after `ignore`). */
export type StepComparator = (expected: unknown, actual: unknown, step: CassetteStep) => boolean;

/** How steps are matched: exact on stable JSON unless told otherwise. */
export interface MatchOptions {
  /**
   * JSON paths left out of the comparison, rooted per step kind: `messages…` and `output` for a
   * request (`messages[0].content`: a date in the system prompt), `tools…` for the tools
   * offered (`tools[*].description`), `wire…` for the provider body (`wire.model`), `call…` for a tool call, `entry…` for a journal entry
   * (`entry.content`). `*` matches every key or index.
   */
  readonly ignore?: readonly string[];
  /** A comparator per step kind, used instead of stable-JSON equality (after `ignore`). */
  readonly compare?: Partial<Record<DivergenceKind, StepComparator>>;
  /**
   * Keep going after a divergence (a changed request is answered as recorded) and report every
   * one, in `divergences`; by default the replay stops at the first.
   */
  readonly continueOnDivergence?: boolean;
}

/** The step at `index` of a journal: its turn (count of `turn_start`s so far) and machine state. */
export function stepAt(journal: readonly JournalEntry[], index: number): CassetteStep {
  let turn = 0;
  let state = '';
  for (let i = 0; i <= index && i < journal.length; i++) {
    const entry = journal[i] as JournalEntry;
    if (entry.type === 'turn_start') {
      turn++;
      // A request is made in awaitingModel, the initial state, entered without a transition entry.
      if (state === '') state = 'awaitingModel';
    } else if (entry.type === 'transition') state = entry.to;
  }
  return { turn, entryIndex: index, state };
}

/** Applies {@link MatchOptions} to steps and keeps the divergences found. */
export class StepMatcher {
  /** Whether matching should go on after a divergence. */
  readonly keepGoing: boolean;
  /** Every divergence found so far, in the order found. */
  readonly found: Divergence[] = [];
  private readonly paths: (string | number)[][];

  constructor(private readonly options: MatchOptions = {}) {
    this.keepGoing = options.continueOnDivergence === true;
    this.paths = (options.ignore ?? []).map(parseJsonPath);
  }

  /** Whether `ignore` or a comparator for `kind` is set (the fast comparisons then do not apply). */
  isTuned(kind: DivergenceKind): boolean {
    return this.paths.length > 0 || this.options.compare?.[kind] !== undefined;
  }

  /**
   * Whether `expected` and `actual` (documents rooted as `ignore` says) match for `kind`;
   * `step` is computed only for a comparator that is given one.
   */
  same(kind: DivergenceKind, expected: unknown, actual: unknown, step: () => CassetteStep): boolean {
    const e = this.paths.length === 0 ? expected : withoutPaths(expected, this.paths);
    const a = this.paths.length === 0 ? actual : withoutPaths(actual, this.paths);
    const comparator = this.options.compare?.[kind];
    if (comparator !== undefined) return comparator(e, a, step());
    return jsonEqual(e, a);
  }

  /** Records a divergence. */
  add(step: CassetteStep, kind: DivergenceKind, expected: unknown, actual: unknown, message: string): Divergence {
    const found = divergence(step, kind, expected, actual, message);
    this.found.push(found);
    return found;
  }
}
