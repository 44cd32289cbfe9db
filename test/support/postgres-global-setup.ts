import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where the first postgres test starts the shared test server (see postgres-server.ts). */
    postgresDir: string;
  }
}

/**
 * Makes the folder for the tests' PostgreSQL server and, after the run, stops the server if a test
 * started one and removes the folder. Starting is left to the first test that needs it, so a run
 * without postgres tests costs nothing.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-pg-'));
  project.provide('postgresDir', dir);
  return () => {
    stopPostgres(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}
