import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  Config,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  stableJson,
  ToolRegistry,
} from '../../src/index.js';
import type { ContentPart } from '../../src/tools/index.js';
import { collect } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { page, pageCall } from './support/long-page.js';

// SPEC §15: "Large data is journaled once, not copied into every later record." The memory and
// jsonl stores keep an image's bytes inline, so a later entry that copies a message holding one
// (a compaction's replacement messages) stores the bytes again.

/** A 64×64 PNG header padded with `fill` bytes: distinct images of one size. */
function png(fill: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(64, 16);
  header.writeUInt32BE(64, 20);
  return Buffer.concat([header, Buffer.alloc(6000, fill)]).toString('base64');
}

const answer = (text: string) => [StreamEvent.textDelta(text), StreamEvent.messageComplete()];

function task(text: string, data: string): ContentPart[] {
  return [
    { type: 'text', text },
    { type: 'image', mediaType: 'image/png', data },
  ];
}

/** Two runs of a conversation, each task with its own image, long enough to compact old outputs. */
async function conversation(store: Awaited<ReturnType<typeof openStore>>, first: string, second: string) {
  const config = new Config({ context: { maxTokens: 9000 } });
  const tools = new ToolRegistry(config).register(page);
  const client = new ScriptedClient([
    pageCall('a1'),
    pageCall('a2'),
    answer('first done'),
    pageCall('b1'),
    pageCall('b2'),
    pageCall('b3'),
    pageCall('b4'),
    answer('second done'),
  ]);
  const session = new Session(config, { store, id: 'conversation' });
  const agent = new Agent(config, { client, tools, session });
  const one = await collect(agent.run(task('first', first)));
  const two = await collect(agent.run(task('second', second)));
  await session.close();
  return { session, ends: [one.at(-1), two.at(-1)] };
}

const copies = (text: string, data: string) => text.split(data).length - 1;

describe('SPEC §15: large data is journaled once, also when the context is compacted', () => {
  for (const kind of ['memory', 'jsonl'] as const) {
    it(`${kind}: each task's image is in the stored journal once, though later turns were compacted`, async () => {
      const dir = tempWorkspace();
      const store = await openStore(kind === 'memory' ? 'memory:' : `jsonl:${dir}`);
      const first = png(1);
      const second = png(2);
      const { session, ends } = await conversation(store, first, second);
      expect(ends).toEqual([
        expect.objectContaining({ type: 'agent_end', data: expect.objectContaining({ response: 'first done' }) }),
        expect.objectContaining({ type: 'agent_end', data: expect.objectContaining({ response: 'second done' }) }),
      ]);
      // The context was compacted, and the second task is still in it, verbatim.
      expect(session.journal.some((entry) => entry.type === 'compaction')).toBe(true);
      expect(session.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        task('first', first),
        task('second', second),
      ]);
      const { entries } = await store.read('conversation');
      const stored = kind === 'memory' ? entries.map((entry) => stableJson(entry)).join('\n') : '';
      const text = kind === 'jsonl' ? readFileSync(join(dir, 'conversation.jsonl'), 'utf8') : stored;
      expect(copies(text, first)).toBe(1);
      expect(copies(text, second)).toBe(1);
      // The stored journal still replays to the same context.
      const replayed = Session.replay(entries, session.config);
      expect(stableJson(replayed.messages)).toBe(stableJson(session.messages));
      await store.close();
    });
  }
});
