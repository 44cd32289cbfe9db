// SPEC §4: "The events a subscriber sees equal, in type and order, the events `agent.run()`
// yields", and §8: "a failed write (disk full, I/O error) ends the run with reason `store_error`,
// emitting nothing past the last durable entry". The reader of `run()` was cut at the store's
// failure, but `agent.events` subscribers were not: they saw the starts and results of calls the
// store never held (even of calls that never ran) and an `agent_end` whose entry was lost, while
// the reader got `store_error`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  type JournalStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { failingStore } from '../support/failing-store.js';
import { drain, typesOf, use } from '../support/runs.js';

const config = new Config({});

const script = () => [
  [
    StreamEvent.textDelta('two writes'),
    StreamEvent.toolCallComplete({ callId: 'a', name: 'write', arguments: {} }),
    StreamEvent.toolCallComplete({ callId: 'b', name: 'write', arguments: {} }),
    StreamEvent.messageComplete(use(3, 2)),
  ],
  [StreamEvent.textDelta('written'), StreamEvent.messageComplete(use(5, 1))],
];

async function runOn(store: JournalStore) {
  const ran: string[] = [];
  const tools = new ToolRegistry(config).register(
    defineTool({
      name: 'write',
      description: 'writes',
      kind: ToolKind.WRITE,
      schema: z.object({}),
      execute: ({ callId }) => {
        ran.push(callId);
        return 'written';
      },
    }),
  );
  const session = new Session(config, { store, id: 'failing' });
  const agent = new Agent(config, { session, client: new ScriptedClient(script()), tools });
  const seen: AgentEvent[] = [];
  agent.events.subscribe((event) => {
    seen.push(event);
  });
  const run = agent.run('write twice');
  // Added after run(): it gets each event after the reader of run() does.
  const late: AgentEvent[] = [];
  agent.events.subscribe(async (event) => {
    await Promise.resolve();
    late.push(event);
  });
  const yielded = await drain(run);
  const stored = (await store.read('failing')).entries;
  return { seen, late, yielded, stored, ran };
}

describe('a store that fails mid-run, seen by a subscriber of agent.events', () => {
  // Each durable point of the run is one append: failing each in turn cuts it everywhere.
  for (const failAt of [1, 2, 3, 4, 5, 6]) {
    it(`sees what run() yields when append ${failAt} fails: nothing past the store, then store_error`, async () => {
      const { seen, late, yielded, stored, ran } = await runOn(await failingStore(failAt));
      expect(yielded.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'store_error' } });
      expect(typesOf(seen)).toEqual(typesOf(yielded));
      expect(typesOf(late)).toEqual(typesOf(yielded));
      expect(late.at(-1)).toBe(seen.at(-1));
      expect(seen.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'store_error' } });
      for (const event of seen) {
        if (event.type === 'tool_call_start') {
          expect(ran).toContain(event.data.callId);
          expect(stored).toContainEqual(expect.objectContaining({ type: 'tool_started', callId: event.data.callId }));
        }
        if (event.type === 'tool_call_complete') {
          expect(stored).toContainEqual(expect.objectContaining({ type: 'tool_result', callId: event.data.callId }));
        }
      }
    });
  }

  it('sees the answer when every append is durable', async () => {
    const { seen, late, yielded } = await runOn(await failingStore(100));
    expect(yielded.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'written' } });
    expect(typesOf(seen)).toEqual(typesOf(yielded));
    expect(typesOf(late)).toEqual(typesOf(yielded));
  });
});
