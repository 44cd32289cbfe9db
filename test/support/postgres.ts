import { randomBytes } from 'node:crypto';
import { beforeAll, inject, TestRunner } from 'vitest';
import { startedPostgres } from './postgres-server.js';
import { checkTool, skipWithout } from './required-tools.js';

/**
 * The URL of the test database (the server starts on first call). Without the server binaries the
 * calling test is skipped, or on CI fails saying how to install them (see required-tools.ts).
 */
export function postgresUrl(): Promise<string> {
  if (skipWithout('postgres')) {
    const { label, where, install } = checkTool('postgres');
    TestRunner.getCurrentTest()?.context.skip(`${label}: not found at ${where}; ${install}`);
  }
  return startedPostgres(inject('postgresDir'));
}

/** The test database's URL with a fresh `?schema=`, so each store starts empty. */
export async function freshPostgresUrl(): Promise<string> {
  return `${await postgresUrl()}?schema=t_${randomBytes(6).toString('hex')}`;
}

/** Starts the server before the file's tests, with time for initdb on a busy machine, so no test's own timeout pays for it. */
export function startPostgresBeforeAll(): void {
  beforeAll(async () => {
    if (skipWithout('postgres')) return; // each test that needs it is skipped instead
    await postgresUrl();
  }, 120_000);
}
