import { randomBytes } from 'node:crypto';
import { beforeAll, inject } from 'vitest';
import { startedPostgres } from './postgres-server.js';

/** The URL of the test database (the server starts on first call; missing binaries fail the test). */
export function postgresUrl(): Promise<string> {
  return startedPostgres(inject('postgresDir'));
}

/** The test database's URL with a fresh `?schema=`, so each store starts empty. */
export async function freshPostgresUrl(): Promise<string> {
  return `${await postgresUrl()}?schema=t_${randomBytes(6).toString('hex')}`;
}

/** Starts the server before the file's tests, with time for initdb on a busy machine, so no test's own timeout pays for it. */
export function startPostgresBeforeAll(): void {
  beforeAll(async () => {
    await postgresUrl();
  }, 120_000);
}
