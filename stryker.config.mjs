// Mutation testing of the loop's core: `npm run mutate` (not part of `npm test`). See docs/testing.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.stryker.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/machines/**/*.ts',
    'src/config/budget.ts',
    'src/tools/registry.ts',
    'src/tools/run-guarded.ts',
    'src/tools/truncate.ts',
    'src/session/session-state.ts',
    'src/testing/invariants/**/*.ts',
  ],
  // Results of unchanged mutants and tests are reused from the last run (a gitignored file).
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // Static mutants (module-level code: the machine's configuration object, constant tables) run
  // every test with no per-test coverage: 558 of 1,410 mutants and ~86% of the time. Ignored in
  // the default run; `npx stryker run --ignoreStatic false` includes them (hours on two cores).
  ignoreStatic: true,
  // Two shared cores: more runners only fight over them.
  concurrency: 2,
  timeoutMS: 15_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
