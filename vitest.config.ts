import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^agent-harness\/testing$/, replacement: src('testing/index.ts') },
      { find: /^agent-harness$/, replacement: src('index.ts') },
      { find: /^agent-harness\/(tools|stores|mcp|context)$/, replacement: src('$1/index.ts') },
      {
        find: /^agent-harness\/(openai|anthropic|inspector|diagram|telemetry|journal|machine|prices|subagents)$/,
        replacement: src('$1.ts'),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // The CLI's sessions go to a throwaway store unless a test names one (never the checkout's .agent-harness/).
    env: { AGENT_HARNESS_STORE: 'memory:' },
    globalSetup: ['./test/support/postgres-global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
