import type { Reporter, TestModule } from 'vitest/node';
import { missingToolsLine } from './required-tools.js';

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, that any CI log reader
 * understands, after vitest's own report; before it, once per run, which tests a missing
 * Chromium or PostgreSQL skipped (or, on CI, failed) and how to install it.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      const failedBefore = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed with no failed test (a hook threw, e.g. no Chromium on CI) still counts as one failure.
      if (module.state() === 'failed' && failed === failedBefore) failed++;
    }
    const missing = missingToolsLine();
    if (missing !== undefined) process.stdout.write(`\n${missing}`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
