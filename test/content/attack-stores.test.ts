import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
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
  stableJson,
  ToolKind,
  ToolRegistry,
  ToolResult,
} from '../../src/index.js';
import type { ContentPart } from '../../src/tools/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const stores: JournalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** Base64 over the stores' blob threshold whose last character has non-zero padding bits: it must come back as given. */
function nonCanonical(bytes: number): string {
  const canonical = randomBytes(bytes).toString('base64');
  expect(canonical.endsWith('==')).toBe(true);
  const last = canonical.at(-3) as string;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bumped = alphabet[(alphabet.indexOf(last) & ~0xf) | ((alphabet.indexOf(last) + 1) & 0xf)] as string;
  const text = `${canonical.slice(0, -3)}${bumped}==`;
  expect(Buffer.from(text, 'base64').toString('base64')).not.toBe(text);
  return text;
}

const big = randomBytes(9000).toString('base64');
const tricky = nonCanonical(6001);
/** Text that looks like a stored blob reference or a data key, to confuse a store's externalizing. */
const lookalike = `"data":"${'A'.repeat(5000)}" \u0001${'a'.repeat(64)} ${'"data":"QUJD"'}`;

const task: ContentPart[] = [
  { type: 'text', text: lookalike },
  { type: 'image', mediaType: 'image/png', data: big },
  { type: 'file', mediaType: 'application/pdf', data: tricky, name: 'rapport ✓ "q".pdf' },
  { type: 'image', mediaType: 'image/webp', url: 'https://img.test/a.webp' },
];

async function runWith(store: JournalStore, id: string): Promise<{ session: Session; config: Config }> {
  const config = new Config({ cwd: tempWorkspace() });
  const registry = new ToolRegistry(config).register(
    defineTool({
      name: 'look',
      description: 'Looks.',
      kind: ToolKind.READ,
      schema: z.object({}),
      execute: () => ToolResult.content([{ type: 'image', mediaType: 'image/png', data: big }]),
    }),
  );
  const client = new ScriptedClient([toolTurn('c1', 'look', {}), toolTurn('c2', 'look', {}), textTurn('seen')]);
  const session = new Session(config, { client, registry, store, id });
  const events = await collect(new Agent(config, { session }).run(task));
  expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'seen' } });
  await session.durable();
  return { session, config };
}

describe.each([
  ['memory', () => 'memory:attack'],
  ['jsonl', () => `jsonl:${join(tempWorkspace(), 'journals')}`],
  ['sqlite', () => `sqlite:${join(tempWorkspace(), 'store.db')}`],
])('attack: parts round trip through the %s store', (_, url) => {
  it('store read, load, fork, replay and toJSON/fromJSON give the journal back byte for byte', async () => {
    const store = await openStore(url());
    stores.push(store);
    const { session, config } = await runWith(store, 'parts');
    const journal = stableJson(session.journal);
    expect(journal).toContain(tricky);
    expect(journal).toContain(JSON.stringify(lookalike).slice(1, -1));
    expect(stableJson((await store.read('parts')).entries)).toBe(journal);

    const fork = await session.fork({ at: session.journalLength, id: 'parts-fork' });
    expect(stableJson(fork.journal)).toBe(journal);
    await fork.close();
    const snapshot = JSON.parse(JSON.stringify(session.toJSON())) as unknown;
    await session.close();
    expect(stableJson((await store.read('parts-fork')).entries)).toBe(journal);

    const loaded = await Session.load(store, 'parts-fork', { config });
    expect(stableJson(loaded.journal)).toBe(journal);
    expect(loaded.messages.find((message) => message.role === 'user')?.content).toEqual(task);
    await loaded.close();

    const replayed = Session.replay(JSON.parse(journal) as unknown[], config);
    expect(stableJson(replayed.journal)).toBe(journal);
    const rebuilt = Session.fromJSON(snapshot, config);
    expect(stableJson(rebuilt.journal)).toBe(journal);
    const tools = rebuilt.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.content)).toEqual([
      [{ type: 'image', mediaType: 'image/png', data: big }],
      [{ type: 'image', mediaType: 'image/png', data: big }],
    ]);
  });

  it('a run refused for a bad part stores nothing', async () => {
    const store = await openStore(url());
    stores.push(store);
    const config = new Config({ cwd: tempWorkspace(), maxAttachmentBytes: 10 });
    const client = new ScriptedClient([textTurn('never')]);
    const session = new Session(config, { client, store, id: 'refused' });
    const agent = new Agent(config, { session });
    const big = [{ type: 'image' as const, mediaType: 'image/png', data: Buffer.alloc(11).toString('base64') }];
    expect(() => agent.run(big)).toThrow(expect.objectContaining({ reason: 'invalid_content' }));
    await session.durable();
    const stored = await store.read('refused').then(
      (read) => read.entries,
      () => [],
    );
    expect(stored).toEqual([]);
    expect(client.requests).toHaveLength(0);
    await session.close();
  });

  it('a fork in the middle keeps the parts it holds', async () => {
    const store = await openStore(url());
    stores.push(store);
    const { session, config } = await runWith(store, 'mid');
    const at = session.journal.findIndex((entry) => entry.type === 'tool_result') + 1;
    const fork = await session.fork({ at, id: 'mid-fork' });
    await fork.close();
    await session.close();
    const loaded = await Session.load(store, 'mid-fork', { config });
    expect(stableJson(loaded.journal)).toBe(stableJson(session.journal.slice(0, at)));
    await loaded.close();
  });
});

describe('attack: loading a journal with bad parts', () => {
  it.each([
    [
      'a user_message part with bad base64',
      { type: 'user_message', content: [{ type: 'image', mediaType: 'image/png', data: '@@' }] },
    ],
    ['a user_message of no parts', { type: 'user_message', content: [] }],
    [
      'a user_message with a javascript: url',
      { type: 'user_message', content: [{ type: 'image', mediaType: 'image/png', url: 'javascript:x' }] },
    ],
  ])('%s is refused by Session.replay naming the entry', (_, entry) => {
    expect(() => Session.replay([entry], new Config({ cwd: tempWorkspace() }))).toThrow(
      expect.objectContaining({
        reason: 'invalid_journal',
        message: expect.stringMatching(/^journal entry 0: 'content'/),
      }),
    );
  });
});
