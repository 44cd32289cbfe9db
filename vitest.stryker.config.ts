import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests `npm run mutate` (Stryker) runs against mutants of the loop's core: those that
 * exercise the machine, budgets, tools, session and invariants. Not merged with the base
 * config's `test` (mergeConfig would add its `include` of every test, and its database setup):
 * only the aliases are shared. The model checker's own tests (planted bugs in machine
 * variants, user rules) are left out: they test the checker, which is not mutated, and would
 * only slow each mutant down.
 */
/**
 * `STRYKER_TESTS` (comma-separated globs) narrows the selection for one chunk: most of a mutant's
 * time is spent importing the test files that cover it (83 of the dry run's 105 s), and a file
 * like `budget.ts` is covered by every test that builds a `Config`. Fewer tests can only kill
 * fewer mutants, so a narrowed score is a lower bound; each chunk's selection is in docs/testing.md.
 */
const narrowed = process.env.STRYKER_TESTS?.split(',').filter((glob) => glob !== '');

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: narrowed ?? [
      'test/seed/**/*.test.ts',
      'test/loop/**/*.test.ts',
      'test/budgets/**/*.test.ts',
      'test/resume/**/*.test.ts',
      'test/journal/**/*.test.ts',
      'test/events/**/*.test.ts',
      'test/machines/**/*.test.ts',
      'test/tools/registry.test.ts',
      'test/tools/registry.sources.test.ts',
      'test/tools/registry-contract.test.ts',
      'test/tools/registry-details.test.ts',
      'test/tools/truncate.test.ts',
      'test/tools/run-guarded.test.ts',
      'test/tools/read-file.test.ts',
      'test/tools/tools-in-runs.test.ts',
      'test/tools/output-cap.test.ts',
      'test/tools/schedule.test.ts',
      'test/tools/schedule-in-runs.test.ts',
      'test/core/data.test.ts',
      'test/core/misuse.test.ts',
      'test/inspect/spawned-tool-actors.test.ts',
      'test/model-check/agent-machine.model-check.test.ts',
      'test/model-check/loop-invariants.test.ts',
      'test/model-check/loop-invariant-rules.test.ts',
      'test/model-check/loop-invariants-file-format.test.ts',
      'test/model-check/loop-invariant-edges.test.ts',
      'test/model-check/journal-run-edges.test.ts',
      'test/subagents/invariants.test.ts',
      'test/subagents/delegation-invariant-edges.test.ts',
    ],
    // Stores (Postgres among them) need the base config's database setup, left out here; the
    // session fold they replay is covered by the other journal and resume tests.
    exclude: ['test/journal/session-store.test.ts'],
    // Timing-sensitive under the load of mutation runs (calls of 1, 10 and 30 ms that start as
    // the reader gets their announcements); the order it checks is covered by other tests.
    testNamePattern: /^(?!.*announces concurrent results in the order the model asked for them).*$/,
    testTimeout: 20_000,
    // Not `isolate: false`: it makes the dry run 6x faster, but Stryker's setup file then runs
    // once per worker instead of once per test file, and mutants survive tests that kill them.
    // Fewer property cases per mutant (150, 60, 60, 40 by default): the property files are a
    // third of the time of a surviving mutant's run, and their first cases kill most mutants.
    env: { FC_NUM_RUNS: '25' },
  },
});
