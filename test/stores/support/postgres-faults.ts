import pg from 'pg';
import { stableJson } from '../../../src/core/stable-json.js';
import type { StoredEntry } from '../../../src/stores/index.js';

/** The schema named by a store URL's `?schema=`. */
export function schemaOf(url: string): string {
  const schema = new URL(url).searchParams.get('schema');
  if (!schema) throw new Error(`${url} has no ?schema=`);
  return schema;
}

/** Runs `sql` on its own connection to the database of `url` (its `?schema=` removed). */
export async function query(url: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/**
 * A connection that begins appending `entries` at `from` to `session` and goes away before it
 * commits: the crash an uncommitted append leaves behind.
 */
export async function abandonTransaction(
  url: string,
  session: string,
  from: number,
  entries: readonly StoredEntry[],
): Promise<void> {
  const schema = schemaOf(url);
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  for (const [i, entry] of entries.entries()) {
    await client.query(`INSERT INTO "${schema}".agent_harness_entries (session, seq, body) VALUES ($1, $2, $3)`, [
      session,
      from + i,
      stableJson(entry),
    ]);
  }
  await client.query(`UPDATE "${schema}".agent_harness_sessions SET entries = entries + $1 WHERE id = $2`, [
    entries.length,
    session,
  ]);
  // Drop the socket without COMMIT: the server rolls the transaction back.
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  await new Promise((resolve) => client.once('end', resolve));
}
