// SPEC §8: a failed write "ends the run with reason `store_error`, emitting nothing past the last
// durable entry", and §4: subscribers see what `run()` yields. The run's gate decided what an
// event is shown as where it met its first subscriber, even when that subscriber came before the
// store's barrier (subscribed to a shared bus before the agent was made): decided before the
// entries were known durable, the decision then held for the reader too, which yielded the
// starts of calls the store never held and an `agent_end` whose entry was lost.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  EventBus,
  type JournalStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { failingStore } from '../support/failing-store.js';
import { drain, use } from '../support/runs.js';

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
  const tools = new ToolRegistry(config).register(
    defineTool({
      name: 'write',
      description: 'writes',
      kind: ToolKind.WRITE,
      schema: z.object({}),
      execute: () => 'written',
    }),
  );
  const events = new EventBus();
  // Subscribed before the agent is made: it comes before the store's barrier.
  events.subscribe(() => {});
  const session = new Session(config, { store, id: 'failing' });
  const agent = new Agent(config, { session, client: new ScriptedClient(script()), tools, events });
  const yielded: AgentEvent[] = await drain(agent.run('write twice'));
  const stored = (await store.read('failing')).entries;
  return { yielded, stored };
}

describe('a store that fails mid-run, on a bus with a subscriber before the store barrier', () => {
  for (const failAt of [1, 2, 3, 4, 5, 6, 7]) {
    it(`run() yields nothing past the store when append ${failAt} fails, then store_error`, async () => {
      const { yielded, stored } = await runOn(await failingStore(failAt));
      expect(stored.some((entry) => entry.type === 'agent_end')).toBe(false);
      expect(yielded.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'store_error' } });
      for (const event of yielded) {
        if (event.type === 'tool_call_start') {
          expect(stored).toContainEqual(expect.objectContaining({ type: 'tool_started', callId: event.data.callId }));
        }
        if (event.type === 'tool_call_complete') {
          expect(stored).toContainEqual(expect.objectContaining({ type: 'tool_result', callId: event.data.callId }));
        }
      }
    });
  }

  it('yields the answer when every append is durable', async () => {
    const { yielded, stored } = await runOn(await failingStore(100));
    expect(stored.some((entry) => entry.type === 'agent_end')).toBe(true);
    expect(yielded.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'written' } });
  });
});
