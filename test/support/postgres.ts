import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { startedPostgres } from './postgres-server.js';

/** The URL of the test database (the server starts on first call; missing binaries fail the test). */
export function postgresUrl(): Promise<string> {
  return startedPostgres(inject('postgresDir'));
}

/** The test database's URL with a fresh `?schema=`, so each store starts empty. */
export async function freshPostgresUrl(): Promise<string> {
  return `${await postgresUrl()}?schema=t_${randomBytes(6).toString('hex')}`;
}
