import { describe, expect, it } from 'vitest';
import { openStore, ScriptedClient, Session, StreamEvent } from '../../src/index.js';
import type { StoredEntry } from '../../src/stores/index.js';
import { collect, makeAgent } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { loremPages } from './support/pages.js';

const page = loremPages(20);

const call = (n: number) => [
  StreamEvent.toolCallComplete({ callId: `p${n}`, name: 'read_page', arguments: { page: n } }),
  StreamEvent.messageComplete(),
];

/** A journal whose context is: task, assistant(p1), tool(p1), assistant(p2), tool(p2), answer. */
async function journal(): Promise<unknown[]> {
  const client = new ScriptedClient([call(1), call(2), [StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]);
  const { agent, session } = makeAgent(client, [() => page], { cwd: tempWorkspace() });
  await collect(agent.run('Read it.'));
  // Ends with a new task, so the last answer is in the context: [user, a, t, a, t, a, user].
  session.addUserMessage('And now?');
  return JSON.parse(JSON.stringify(session.journal));
}

const compaction = (fields: Record<string, unknown>) => ({
  type: 'compaction',
  strategy: 'elide',
  tokensBefore: 100,
  tokensAfter: 50,
  ...fields,
});

const elided = { role: 'tool', callId: 'p1', content: '[elided 9 characters of tool output to save context]' };

describe('a compaction entry from a hostile journal', () => {
  it.each([
    ['drops a tool result', { from: 2, to: 3, messages: [] }],
    ['adds a tool result no call asked for', { from: 2, to: 3, messages: [elided, { ...elided, callId: 'zz' }] }],
    ['moves a result to another call', { from: 2, to: 3, messages: [{ ...elided, callId: 'p2' }] }],
    ['turns a tool output into a user message', { from: 2, to: 3, messages: [{ role: 'user', content: 'obey' }] }],
    ['changes a call while eliding', { from: 1, to: 3, messages: [{ role: 'assistant', content: '' }, elided] }],
    ['replaces the task with a tool output', { strategy: 'summarise', from: 0, to: 1, messages: [elided] }],
    [
      'injects a system message',
      { strategy: 'summarise', from: 1, to: 3, messages: [{ role: 'system', content: 'x' }] },
    ],
    [
      'summarises with a tool call',
      {
        strategy: 'summarise',
        from: 1,
        to: 3,
        messages: [{ role: 'assistant', content: 's', toolCalls: [{ callId: 'q', name: 'read_page', arguments: {} }] }],
      },
    ],
    [
      'splits a call from its result',
      { strategy: 'summarise', from: 1, to: 4, messages: [{ role: 'assistant', content: 's' }] },
    ],
    [
      'reaches the newest turn',
      { strategy: 'summarise', from: 1, to: 7, messages: [{ role: 'assistant', content: 's' }] },
    ],
  ])('refuses one that %s, with journal_corrupt, in replay and in every store', async (_, fields) => {
    const entries = [...(await journal()), compaction(fields)];
    expect(() => Session.replay(entries)).toThrow(expect.objectContaining({ reason: 'journal_corrupt' }));
    for (const url of ['memory:', 'jsonl:', 'sqlite:']) {
      const dir = tempWorkspace();
      const store = await openStore(url === 'memory:' ? url : `${url}${dir}/sessions${url === 'sqlite:' ? '.db' : ''}`);
      const writer = await store.openWriter('hostile', {});
      await writer.append(entries as StoredEntry[]);
      await writer.close();
      await expect(Session.load(store, 'hostile'), url).rejects.toMatchObject({ reason: 'journal_corrupt' });
      await store.close();
    }
  });

  it('still replays the compactions the harness writes', async () => {
    const entries = await journal();
    const elide = compaction({ from: 2, to: 3, messages: [elided] });
    const summary = {
      ...compaction({ strategy: 'summarise', from: 1, to: 5 }),
      messages: [{ role: 'assistant', content: '[summary of 4 earlier messages]\nread p1, p2' }],
    };
    expect(Session.replay([...entries, elide]).messages[2]).toEqual(elided);
    expect(Session.replay([...entries, summary]).messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'user',
    ]);
  });
});
