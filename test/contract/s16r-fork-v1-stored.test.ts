// SPEC §8: a call that started but has no result is in doubt, and §4: old journal versions stay
// readable. A version 1 session (no write-ahead `tool_started`) cut while its tools ran owes
// calls that may have run. `agent-harness fork` (and the inspector's "fork here") stored the fork
// as the current version: loaded again, its owed non-idempotent call was taken for one that
// never started and ran again (a second payment). Session.fork keeps version 1; so must they.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../src/cli/main.js';
import { forkStored } from '../../src/cli/stored-inspector.js';
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
import { captured } from '../cli/support/cli-harness.js';
import { drain } from '../support/runs.js';
import { tempWorkspace } from '../support/workspace.js';

const config = new Config({});

/** A run cut in its executingTools state, as journal version 1 writes it. */
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

/** A store holding the version 1 session `v1`. */
async function v1Store(): Promise<string> {
  const url = `sqlite:${join(tempWorkspace(), 'sessions.db')}`;
  const store = await openStore(url);
  const writer = await store.openWriter('v1', { meta: { journalVersion: '1', model: 'm' } });
  await writer.append(JSON.parse(JSON.stringify(cut)));
  await writer.close();
  await store.close();
  return url;
}

/** Loads stored session `id` and resumes it: which calls ran, and the results recorded. */
async function resumeStored(url: string, id: string) {
  const store = await openStore(url);
  const meta = (await store.read(id)).meta;
  const session = await Session.load(store, id, { config });
  const ran: string[] = [];
  const client = new ScriptedClient([[StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]);
  await drain(new Agent(config, { session, client, tools: registry(ran) }).resume());
  const results = Object.fromEntries(
    session.journal.flatMap((entry: JournalEntry) =>
      entry.type === 'tool_result' ? [[entry.callId, entry.content]] : [],
    ),
  );
  await session.close();
  await store.close();
  return { meta, ran, results };
}

describe('a stored fork of a version 1 session cut while its tools ran', () => {
  it('agent-harness fork keeps it version 1: resumed, the non-idempotent call is in doubt', async () => {
    const url = await v1Store();
    const err = captured();
    expect(await main(['fork', 'v1', '--at', String(cut.length), '--id', 'f', '--store', url], captured(), err)).toBe(
      0,
    );
    expect(err.text()).toBe('');
    const { meta, ran, results } = await resumeStored(url, 'f');
    expect(meta).toMatchObject({ journalVersion: '1', model: 'm' });
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });

  it("the inspector's fork here (forkStored) does the same", async () => {
    const url = await v1Store();
    await forkStored(url, 'v1', cut.length, 'g');
    const { meta, ran, results } = await resumeStored(url, 'g');
    expect(meta).toMatchObject({ journalVersion: '1' });
    expect(ran).toEqual(['l1']);
    expect(String(results.p1)).toMatch(/^Error: interrupted: /);
  });
});
