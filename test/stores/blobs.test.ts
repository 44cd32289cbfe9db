import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalStore,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import type { StoredEntry } from '../../src/stores/index.js';
import type { ContentPart } from '../../src/tools/index.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { drain, use } from '../support/runs.js';
import { tempWorkspace } from '../support/workspace.js';
import { query, schemaOf } from './support/postgres-faults.js';
import { execSql } from './support/sqlite-faults.js';

startPostgresBeforeAll();

/** A PNG header (`width`×`height`) followed by random bytes up to `size`: incompressible, like a screenshot. */
function png(size: number, width = 1280, height = 800): Buffer {
  const bytes = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

const IMAGE_BYTES = 2 * 1024 * 1024;
const TURNS = 50;
/** The turns whose tool call returns the screenshot again (the others return text). */
const SCREENSHOT_TURNS = new Set([10, 20, 30, 40]);

const stores: JournalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function open(url: string): Promise<JournalStore> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

/** A 50-turn session whose task carries the image and whose `look` tool returns it 4 more times. */
async function runLongSession(
  store: JournalStore,
  image: string,
  id: string,
): Promise<{ session: Session; config: Config }> {
  const config = new Config({ cwd: tempWorkspace(), maxTurns: TURNS + 1 });
  let calls = 0;
  const registry = new ToolRegistry(config).register(
    defineTool({
      name: 'look',
      description: 'Looks at the screen.',
      kind: ToolKind.READ,
      schema: z.object({}),
      execute: () => {
        calls++;
        return SCREENSHOT_TURNS.has(calls)
          ? ToolResult.content([
              { type: 'text', text: 'the screen' },
              { type: 'image', mediaType: 'image/png', data: image },
            ])
          : ToolResult.success(`nothing new (${calls})`);
      },
    }),
  );
  const turns = Array.from({ length: TURNS - 1 }, (_, i) => [
    StreamEvent.toolCallComplete({ callId: `c${i + 1}`, name: 'look', arguments: {} }),
    StreamEvent.messageComplete(use(10, 2)),
  ]);
  turns.push([StreamEvent.textDelta('a login form'), StreamEvent.messageComplete(use(10, 3))]);
  const session = new Session(config, { client: new ScriptedClient(turns), registry, store, id });
  const task: ContentPart[] = [
    { type: 'text', text: 'what is on this screen?' },
    { type: 'image', mediaType: 'image/png', data: image },
  ];
  const events = await drain(new Agent(config, { session }).run(task));
  expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'a login form' } });
  await session.durable();
  return { session, config };
}

/** Checks the stored journal, its fork and its reload: each byte-identical to what was run. */
async function checkRoundTrips(store: JournalStore, id: string, session: Session, config: Config): Promise<void> {
  const journal = stableJson(session.journal);
  expect(session.journal.filter((entry) => JSON.stringify(entry).includes('"image/png"')).length).toBe(5);
  expect(stableJson((await store.read(id)).entries)).toBe(journal);
  const fork = await session.fork({ at: session.journalLength, id: `${id}-fork` });
  await fork.close();
  await session.close();
  expect(stableJson((await store.read(`${id}-fork`)).entries)).toBe(journal);
  const loaded = await Session.load(store, `${id}-fork`, { config });
  expect(stableJson(loaded.journal)).toBe(journal);
  await loaded.close();
  const replayed = Session.replay((await store.read(id)).entries, config);
  expect(stableJson(replayed.journal)).toBe(journal);
  expect(replayed.messages).toEqual(session.messages);
}

describe('sqlite: an image is journaled once', () => {
  it('a 50-turn session whose task and 4 tool results carry a 2 MB image, and its fork, store it once', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await open(`sqlite:${file}`);
    const image = png(IMAGE_BYTES).toString('base64');
    const { session, config } = await runLongSession(store, image, 'shots');
    await checkRoundTrips(store, 'shots', session, config);
    await store.close();
    const db = new Sqlite(file, { readonly: true });
    const blobs = db.prepare('SELECT hash, length(bytes) AS size FROM blobs').all();
    db.close();
    expect(blobs).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{64}$/), size: IMAGE_BYTES }]);
    const size = statSync(file).size;
    console.info(`sqlite: a 2 MiB image in ${TURNS} turns (5 entries) and a fork: file ${size} bytes`);
    expect(size).toBeLessThan(2 * IMAGE_BYTES);
  });

  it('writes a blob in the transaction of its entry: a failed append leaves neither', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await open(`sqlite:${file}`);
    const writer = await store.openWriter('failing');
    await writer.append([{ type: 'user_message', content: 'hi' }]);
    execSql(
      file,
      `CREATE TRIGGER fail BEFORE INSERT ON appends BEGIN SELECT RAISE(ABORT, 'injected: disk is full'); END`,
    );
    const image = png(64 * 1024).toString('base64');
    await expect(writer.append([imageEntry(image)])).rejects.toMatchObject({ reason: 'store_error' });
    const db = new Sqlite(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 0 });
    db.close();
    expect((await store.read('failing')).entries).toEqual([{ type: 'user_message', content: 'hi' }]);
  });

  it('keeps one blob per distinct content, and inline what would not re-encode to the same text', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await open(`sqlite:${file}`);
    const writer = await store.openWriter('kinds');
    const image = png(8192).toString('base64');
    const nonCanonical = `${'A'.repeat(4096)}QR==`;
    const short = image.slice(0, 4092);
    const entries: StoredEntry[] = [
      imageEntry(image),
      imageEntry(image),
      imageEntry(nonCanonical),
      imageEntry(short),
      { type: 'note', text: `"data":"${image}"` },
    ];
    await writer.append(entries);
    const db = new Sqlite(file, { readonly: true });
    const blobs = db.prepare('SELECT hash FROM blobs').all();
    const bodies = (db.prepare('SELECT bodies FROM appends').get() as { bodies: string }).bodies;
    db.close();
    expect(blobs).toEqual([{ hash: createHash('sha256').update(Buffer.from(image, 'base64')).digest('hex') }]);
    expect(bodies).toContain(nonCanonical);
    expect(bodies).toContain(`"data":"${short}"`);
    expect(bodies.split(image).length).toBe(2); // only in the note's text
    expect((await store.read('kinds')).entries).toEqual(entries);
  });

  it("the documented clean-up removes exactly the blobs no session's entry references", async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await open(`sqlite:${file}`);
    const [kept, dropped] = [png(8192).toString('base64'), png(8192).toString('base64')];
    await (await store.openWriter('kept')).append([imageEntry(kept)]);
    await (await store.openWriter('dropped')).append([imageEntry(dropped), imageEntry(kept)]);
    await store.close();
    execSql(file, "DELETE FROM appends WHERE session = 'dropped'; DELETE FROM sessions WHERE id = 'dropped'");
    execSql(
      file,
      'DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM appends WHERE instr(bodies, char(1) || blobs.hash) > 0)',
    );
    const db = new Sqlite(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
    db.close();
    await expect((await open(`sqlite:${file}`)).read('kept')).resolves.toMatchObject({ entries: [imageEntry(kept)] });
  });

  it('refuses an entry whose blob is gone with journal_corrupt naming its seq', async () => {
    const file = join(tempWorkspace(), 'store.db');
    const store = await open(`sqlite:${file}`);
    const writer = await store.openWriter('lost');
    await writer.append([{ type: 'user_message', content: 'hi' }, imageEntry(png(8192).toString('base64'))]);
    execSql(file, 'DELETE FROM blobs');
    await expect(store.read('lost')).rejects.toMatchObject({
      reason: 'journal_corrupt',
      message: expect.stringMatching(/'lost'.*seq 1.*blob [0-9a-f]{64} is missing/),
    });
  });
});

describe('postgres: an image is journaled once', () => {
  it('a 50-turn session whose task and 4 tool results carry a 2 MB image, and its fork, store it once', async () => {
    const url = await freshPostgresUrl();
    const schema = schemaOf(url);
    const store = await open(url);
    const image = png(IMAGE_BYTES).toString('base64');
    const { session, config } = await runLongSession(store, image, 'shots');
    await checkRoundTrips(store, 'shots', session, config);
    const blobs = await query(url, `SELECT hash, length(bytes) AS size FROM "${schema}".agent_harness_blobs`);
    expect(blobs.rows).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{64}$/), size: IMAGE_BYTES }]);
    // The documented clean-up keeps a blob that entries reference.
    await query(
      url,
      `DELETE FROM "${schema}".agent_harness_blobs b WHERE NOT EXISTS
         (SELECT 1 FROM "${schema}".agent_harness_entries e WHERE strpos(e.body, chr(1) || b.hash) > 0)`,
    );
    expect((await query(url, `SELECT count(*)::int AS n FROM "${schema}".agent_harness_blobs`)).rows).toEqual([
      { n: 1 },
    ]);
    const sizes = await query(
      url,
      `SELECT sum(pg_total_relation_size(c.oid))::bigint AS size FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    const size = Number(sizes.rows[0]?.size);
    console.info(`postgres: a 2 MiB image in ${TURNS} turns (5 entries) and a fork: tables ${size} bytes`);
    expect(size).toBeLessThan(2 * IMAGE_BYTES);
  });

  it('writes a blob in the statement of its entry: a failed append leaves neither', async () => {
    const url = await freshPostgresUrl();
    const schema = schemaOf(url);
    const store = await open(url);
    const writer = await store.openWriter('failing');
    await writer.append([{ type: 'user_message', content: 'hi' }]);
    await query(
      url,
      `CREATE FUNCTION "${schema}".fail_writes() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'injected: No space left on device'; END $$`,
    );
    await query(
      url,
      `CREATE TRIGGER fail_writes BEFORE INSERT ON "${schema}".agent_harness_entries
         FOR EACH ROW EXECUTE FUNCTION "${schema}".fail_writes()`,
    );
    await expect(writer.append([imageEntry(png(64 * 1024).toString('base64'))])).rejects.toMatchObject({
      reason: 'store_error',
    });
    expect((await query(url, `SELECT count(*)::int AS n FROM "${schema}".agent_harness_blobs`)).rows).toEqual([
      { n: 0 },
    ]);
    expect((await store.read('failing')).entries).toEqual([{ type: 'user_message', content: 'hi' }]);
  });

  it('migrates version 1 tables on open and refuses an unknown version, changing nothing', async () => {
    const url = await freshPostgresUrl();
    const schema = schemaOf(url);
    const store = await openStore(url);
    const writer = await store.openWriter('old');
    await writer.append([{ type: 'user_message', content: 'before blobs' }]);
    await store.close();
    const version = async () =>
      (await query(url, `SELECT value FROM "${schema}".agent_harness_info WHERE key = 'version'`)).rows[0]?.value;
    await query(url, `DROP TABLE "${schema}".agent_harness_blobs`);
    await query(url, `UPDATE "${schema}".agent_harness_info SET value = '1' WHERE key = 'version'`);
    const again = await open(url);
    expect(await version()).toBe('2');
    const image = png(8192).toString('base64');
    const next = await again.openWriter('old');
    await next.append([imageEntry(image)]);
    expect((await again.read('old')).entries).toEqual([
      { type: 'user_message', content: 'before blobs' },
      imageEntry(image),
    ]);
    await again.close();
    await query(url, `UPDATE "${schema}".agent_harness_info SET value = '3' WHERE key = 'version'`);
    await expect(openStore(url)).rejects.toMatchObject({
      reason: 'unsupported_journal_version',
      message: expect.stringContaining('schema version 3'),
    });
    expect(await version()).toBe('3');
  });
});

function imageEntry(data: string): StoredEntry {
  return {
    type: 'tool_result',
    callId: 'c1',
    content: [
      { type: 'text', text: 'the screen' },
      { type: 'image', mediaType: 'image/png', data },
    ],
  };
}
