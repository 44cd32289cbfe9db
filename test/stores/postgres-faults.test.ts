import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/core/errors.js';
import { openStore } from '../../src/stores/index.js';
import { freshPostgresUrl, postgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { entriesAt } from './support/entries.js';
import { query, schemaOf } from './support/postgres-faults.js';

startPostgresBeforeAll();

async function failureOf(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

describe('postgres: the writer connection', () => {
  it('when it dies, fails the next append with store_error, keeps the entries, and frees the lock for a new writer', async () => {
    const url = await freshPostgresUrl();
    const store = await openStore(url);
    const id = `dies-${schemaOf(url)}`;
    const writer = await store.openWriter(id);
    await writer.append(entriesAt(0, 5));
    const killed = await query(
      url,
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
      [`agent-harness writer ${id}`.slice(0, 63)],
    );
    expect(killed.rows).toEqual([{ ok: true }]);
    const error = await failureOf(writer.append(entriesAt(5, 3)));
    expect(error.reason).toBe('store_error');
    expect(error.message).toContain(`session '${id}'`);
    expect(writer.length).toBe(5);
    expect((await store.read(id)).entries).toEqual(entriesAt(0, 5));
    let next = await store.openWriter(id).catch((thrown: unknown) => thrown);
    // The server frees a terminated backend's locks as it exits, which can take a moment.
    for (let tries = 0; HarnessError.isInstance(next) && next.reason === 'session_locked' && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      next = await store.openWriter(id).catch((thrown: unknown) => thrown);
    }
    if (HarnessError.isInstance(next) || !next || typeof next !== 'object') throw next;
    const taken = next as Awaited<ReturnType<typeof store.openWriter>>;
    expect(taken.length).toBe(5);
    await taken.append(entriesAt(5, 1));
    expect((await store.read(id)).entries).toEqual(entriesAt(0, 6));
    await store.close();
  });

  it('holds the lock against writers of other stores and processes on the same database', async () => {
    const url = await freshPostgresUrl();
    const [one, two] = [await openStore(url), await openStore(url)];
    const writer = await one.openWriter('s');
    const error = await failureOf(two.openWriter('s'));
    expect(error.reason).toBe('session_locked');
    expect(error.message).toMatch(
      /locked by another live writer \(database backend pid \d+, 'agent-harness writer s'\)/,
    );
    await writer.close();
    expect((await two.openWriter('s')).length).toBe(0);
    await one.close();
    await two.close();
  });

  it('keeps stores in different schemas apart, locks included', async () => {
    const [a, b] = [await openStore(await freshPostgresUrl()), await openStore(await freshPostgresUrl())];
    const writerA = await a.openWriter('same-id');
    await writerA.append(entriesAt(0, 2));
    const writerB = await b.openWriter('same-id');
    expect(writerB.length).toBe(0);
    expect((await b.list()).map((s) => s.entries)).toEqual([0]);
    await a.close();
    await b.close();
  });
});

describe('postgres: opening', () => {
  it('a server that does not answer is a store_error whose message hides the password', async () => {
    const error = await failureOf(openStore('postgres://me:s3cret@127.0.0.1:1/db?connect_timeout=2'));
    expect(error.reason).toBe('store_error');
    expect(error.message).toContain('postgres://me:***@127.0.0.1:1/db');
    expect(error.message).not.toContain('s3cret');
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const error = await failureOf(openStore(`${await postgresUrl()}?schema=x"; DROP TABLE y; --`));
    expect(error.reason).toBe('invalid_argument');
    expect(error.message).toContain('schema');
  });

  it('refuses tables of an unknown schema version with unsupported_journal_version', async () => {
    const url = await freshPostgresUrl();
    await (await openStore(url)).close();
    await query(url, `UPDATE "${schemaOf(url)}".agent_harness_info SET value = '9' WHERE key = 'version'`);
    const error = await failureOf(openStore(url));
    expect(error.reason).toBe('unsupported_journal_version');
    expect(error.message).toContain('schema version 9');
  });

  it('names the location with the schema and without credentials', async () => {
    const url = await freshPostgresUrl();
    const store = await openStore(url);
    expect(store.location).toBe(url);
    await store.close();
  });
});
