import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * Folders whose files share one module graph per worker (`isolate: false`): importing the library
 * again for each file cost more than most of them take to run. A file there that mocks modules,
 * touches the environment or process-wide state, or starts processes still runs isolated (see
 * {@link touchesProcess}); `cli` (in-process `main`, signal handlers) and `inspector` (browser,
 * servers) stay isolated whole.
 */
const SHARED_FOLDERS = [
  'core',
  'machines',
  'budgets',
  'events',
  'resume',
  'loop',
  'answers',
  'context',
  'seed',
  'model-check',
  'journal',
  'adapters',
  'telemetry',
  'tools',
  'inspect',
  'stores',
  'subagents',
  'approval',
  'mcp',
  'docs',
  'bench',
  'suite',
];

/** What makes a test file unsafe to share a module graph with the next one. */
const touchesProcess =
  /vi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|spyOn)|process\.env|process\.chdir|globalThis|process\.on\(|setMaxListeners|spawn|execFile/;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

const shared = SHARED_FOLDERS.flatMap((folder) => testFiles(join('test', folder))).filter(
  (file) => !touchesProcess.test(readFileSync(file, 'utf8')),
);

export default defineConfig({
  resolve: {
    alias: [
      { find: /^agent-harness\/testing$/, replacement: src('testing/index.ts') },
      { find: /^agent-harness$/, replacement: src('index.ts') },
      { find: /^agent-harness\/(tools|stores|mcp|context)$/, replacement: src('$1/index.ts') },
      {
        find: /^agent-harness\/(openai|anthropic|inspector|diagram|telemetry|journal|machine|prices|subagents|restate|guardrails)$/,
        replacement: src('$1.ts'),
      },
    ],
  },
  test: {
    testTimeout: 20_000,
    // Hooks start browsers, servers and clusters: on a loaded machine that takes more than vitest's 10 s.
    hookTimeout: 60_000,
    // Vitest leaves one core to itself by default; it mostly waits, and on two cores that halves the run.
    maxWorkers: availableParallelism(),
    // The CLI's sessions go to a throwaway store unless a test names one (never the checkout's .agent-harness/).
    env: { AGENT_HARNESS_STORE: 'memory:' },
    globalSetup: ['./test/support/postgres-global-setup.ts', './test/support/script-bundles-global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: shared, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: shared } },
    ],
  },
});
