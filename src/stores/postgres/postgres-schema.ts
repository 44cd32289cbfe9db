import type { PoolClient } from 'pg';
import { HarnessError } from '../../core/errors.js';

/**
 * The `postgres:` schema version this library writes. Version 2 adds `blobs`: version 1 tables
 * are migrated on open (the table is created and the version set, under the creation lock).
 */
export const POSTGRES_VERSION = 2;

/** The qualified table names of one store, e.g. `"public".agent_harness_entries`. */
export interface PostgresTables {
  /** `store_info`: format and version. */
  readonly info: string;
  /** One row per session. */
  readonly sessions: string;
  /** One row per entry, keyed by (session, seq). */
  readonly entries: string;
  /** Bytes stored once, keyed by their SHA-256 (hex), shared by every session. */
  readonly blobs: string;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The tables of a store in `schema` (validated: letters, digits and `_`, else `invalid_argument`). */
export function postgresTables(schema: string): PostgresTables {
  if (!SCHEMA_NAME.test(schema)) {
    throw new HarnessError(
      'invalid_argument',
      `invalid postgres schema name ${JSON.stringify(schema)}: use letters, digits and _ (at most 63)`,
    );
  }
  const table = (name: string) => `"${schema}".agent_harness_${name}`;
  return { info: table('info'), sessions: table('sessions'), entries: table('entries'), blobs: table('blobs') };
}

/** Any constant: the advisory lock that serialises concurrent schema creation. */
const CREATE_LOCK = 7_346_211_093;

/**
 * Creates the schema and tables when missing (under a transaction-level advisory lock, since
 * concurrent `CREATE TABLE IF NOT EXISTS` can collide), migrates version 1 to
 * {@link POSTGRES_VERSION} in the same transaction, and refuses an unknown version (the
 * transaction rolls back: nothing changes).
 */
export async function preparePostgresSchema(
  client: PoolClient,
  schema: string,
  tables: PostgresTables,
  location: string,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${CREATE_LOCK})`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.info} (key text PRIMARY KEY, value text NOT NULL)`);
    await client.query(
      `INSERT INTO ${tables.info} (key, value) VALUES ('format', 'agent-harness-postgres'), ('version', '${POSTGRES_VERSION}') ON CONFLICT (key) DO NOTHING`,
    );
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.sessions} (
      id text PRIMARY KEY,
      meta text NOT NULL,
      created_at text NOT NULL,
      updated_at text NOT NULL,
      status text NOT NULL,
      entries integer NOT NULL
    )`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.entries} (
      session text NOT NULL,
      seq integer NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (session, seq)
    )`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.blobs} (hash text PRIMARY KEY, bytes bytea NOT NULL)`);
    const version = await client.query<{ value: string }>(`SELECT value FROM ${tables.info} WHERE key = 'version'`);
    const found = version.rows[0]?.value;
    if (found === '1') {
      await client.query(`UPDATE ${tables.info} SET value = $1 WHERE key = 'version'`, [String(POSTGRES_VERSION)]);
    } else if (found !== String(POSTGRES_VERSION)) {
      throw new HarnessError(
        'unsupported_journal_version',
        `${location} has schema version ${found}; this library reads versions 1 to ${POSTGRES_VERSION}`,
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
