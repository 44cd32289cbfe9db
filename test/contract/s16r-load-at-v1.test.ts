// SPEC §14: "in-doubt calls follow §8", and §8: a call that started but has no result is in
// doubt. `Session.loadAt` (how `agent-harness/restate` loads a session to run it) checked the
// stored journal version but replayed the entries as the current version: resuming a version 1
// session cut while its tools ran (no write-ahead `tool_started`) took its owed non-idempotent
// call for one that never started and ran it again, where `Session.load` answers it interrupted.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain } from '../support/runs.js';

const config = new Config({});

const cut = [
  { type: 'user_message', content: 'pay the invoice' },
  { type: 'turn_start' },
  { type: 'usage', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } },
  {
    type: 'assistant_message',
    content: '',
    toolCalls: [
      { callId: 'p1', name: 'pay', arguments: {} },
      { callId: 'l1', name: 'look', arguments: {} },
    ],
  },
  { type: 'transition', event: 'xstate.done.actor.model', from: 'awaitingModel', to: 'executingTools' },
];

function registry(ran: string[]) {
  const tool = (name: string, kind: ToolKind) =>
    defineTool({
      name,
      description: `${name} tool`,
      kind,
      schema: z.object({}),
      execute: ({ callId }) => {
        ran.push(callId);
        return `${name} done`;
      },
    });
  return new ToolRegistry(config).register(tool('pay', ToolKind.WRITE)).register(tool('look', ToolKind.READ));
}

describe('Session.loadAt of a version 1 session cut while its tools ran', () => {
  it('resumed, the non-idempotent call is in doubt (interrupted, not run again), as with Session.load', async () => {
    const store = await openStore('memory:');
    const writer = await store.openWriter('v1', { meta: { journalVersion: '1' } });
    await writer.append(JSON.parse(JSON.stringify(cut)));
    await writer.close();
    const { session } = await Session.loadAt(store, 'v1', { at: cut.length, config });
    const ran: string[] = [];
    const client = new ScriptedClient([[StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]);
    await drain(new Agent(config, { session, client, tools: registry(ran) }).resume());
    const results = Object.fromEntries(
      session.journal.flatMap((entry: JournalEntry) =>
        entry.type === 'tool_result' ? [[entry.callId, entry.content]] : [],
      ),
    );
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
    await session.close();
    await store.close();
  });
});
