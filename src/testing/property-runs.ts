import { HarnessError } from '../core/errors.js';
import { byDepth, testDepth } from './test-depth.js';

/** The seed every property run uses unless `FC_SEED` says otherwise. */
export const DEFAULT_PROPERTY_SEED = 20_240_917;

/** How many extra seeds a `TEST_DEPTH=deep` run tries after the default one. */
const DEEP_EXTRA_SEEDS = 2;

/** Options for one `fc.assert`: a fixed seed, so every run of the suite checks the same cases. */
export interface PropertyRunOptions {
  /** The random seed (printed by fast-check with any failure, with the `path` to its counterexample). */
  readonly seed: number;
  /** How many random cases to try (`FC_NUM_RUNS` overrides it). */
  readonly numRuns: number;
  /** Replays one counterexample: `FC_PATH`, as fast-check printed it next to the seed. */
  readonly path?: string;
  /** fast-check's verbosity: `FC_VERBOSE` (0 by default; 1 lists every failing value met while shrinking). */
  readonly verbose: 0 | 1 | 2;
}

type Env = Readonly<Record<string, string | undefined>>;

function integerFrom(env: Env, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new HarnessError('invalid_argument', `${name} must be an integer, got '${text}'`);
  return value;
}

function verbosity(env: Env): 0 | 1 | 2 {
  const level = integerFrom(env, 'FC_VERBOSE') ?? 0;
  if (level !== 0 && level !== 1 && level !== 2) {
    throw new HarnessError('invalid_argument', `FC_VERBOSE must be 0, 1 or 2, got '${env.FC_VERBOSE}'`);
  }
  return level;
}

/**
 * The runs of one property: pass each to `fc.assert(property, run)`. By default one run with
 * {@link DEFAULT_PROPERTY_SEED} and `numRuns.default` cases, so CI checks the same cases every
 * time; with `TEST_DEPTH=deep`, `numRuns.deep` cases for that seed and for a few more. `FC_SEED`
 * replaces the seeds with one (and `FC_PATH` replays one counterexample of it), to reproduce
 * the seed and path a failure printed. `FC_NUM_RUNS` replaces the number of cases (`npm run
 * mutate` runs fewer, to keep each mutant's run short).
 *
 * @example
 * for (const run of propertyRuns({ default: 100, deep: 2000 })) await fc.assert(property, run);
 */
export function propertyRuns(
  numRuns: { readonly default: number; readonly deep: number },
  env: Env = process.env,
): PropertyRunOptions[] {
  const depth = testDepth(env);
  const runs = integerFrom(env, 'FC_NUM_RUNS') ?? byDepth(numRuns, depth);
  const verbose = verbosity(env);
  const seed = integerFrom(env, 'FC_SEED');
  if (seed !== undefined) {
    const path = env.FC_PATH;
    return [{ seed, numRuns: runs, verbose, ...(path === undefined || path === '' ? {} : { path }) }];
  }
  const extra = depth === 'deep' ? DEEP_EXTRA_SEEDS : 0;
  return Array.from({ length: 1 + extra }, (_, i) => ({ seed: DEFAULT_PROPERTY_SEED + i, numRuns: runs, verbose }));
}
