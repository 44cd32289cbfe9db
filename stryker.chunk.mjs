// Mutation testing of part of the loop's core, with its own report and incremental file, so that
// results are kept as each part finishes (Stryker writes them only at the end of a run). E.g.
//   CHUNK=machine FILES=src/machines/agent-machine.ts npx stryker run stryker.chunk.mjs
// writes reports/mutation/chunks/machine.{json,html,incremental.json}. See docs/testing.md.
import base from './stryker.config.mjs';

const chunk = process.env.CHUNK;
const files = process.env.FILES;
if (!chunk || !files) throw new Error('stryker.chunk.mjs: set CHUNK (a name) and FILES (comma-separated globs)');

export default {
  ...base,
  mutate: files.split(','),
  incrementalFile: `reports/mutation/chunks/${chunk}.incremental.json`,
  jsonReporter: { fileName: `reports/mutation/chunks/${chunk}.json` },
  htmlReporter: { fileName: `reports/mutation/chunks/${chunk}.html` },
  tempDirName: `.stryker-tmp-${chunk}`,
};
