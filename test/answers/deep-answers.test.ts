import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  Config,
  defineTool,
  type JournalStore,
  openStore,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { drain, use } from '../support/runs.js';
import { tempWorkspace } from '../support/workspace.js';

/** JSON text nesting `levels` arrays. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const DEEP = 5000;

const stores: JournalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function sqliteStore(): Promise<JournalStore> {
  const store = await openStore(`sqlite:${tempWorkspace()}/sessions.db`);
  stores.push(store);
  return store;
}

function echoRegistry(config: Config, runs: unknown[]) {
  return new ToolRegistry(config).register(
    defineTool({
      name: 'echo',
      description: 'Echoes its input.',
      kind: ToolKind.READ,
      schema: z.object({ value: z.unknown() }),
      execute: async ({ params }) => {
        runs.push(params.value);
        return 'echoed';
      },
    }),
  );
}

function toolOutputs(events: readonly AgentEvent[]): unknown[] {
  return events.flatMap((e) => (e.type === 'tool_call_complete' ? [e.data.error ?? e.data.output] : []));
}

describe('answers and tool arguments nested deeper than the bound', () => {
  it('answers deep tool arguments (as an adapter parses them) with Invalid parameters, and the session runs and loads again', async () => {
    const store = await sqliteStore();
    const config = new Config({ cwd: tempWorkspace() });
    const runs: unknown[] = [];
    const deepObject = JSON.parse(`{"value":${nested(DEEP)}}`) as Record<string, never>;
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'a', name: 'echo', arguments: deepObject }),
        StreamEvent.messageComplete(use(3, 1)),
      ],
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete(use(3, 1))],
      [StreamEvent.textDelta('again'), StreamEvent.messageComplete(use(3, 1))],
    ]);
    const registry = echoRegistry(config, runs);
    const session = new Session(config, { client, registry, store, id: 'deep-args' });
    const agent = new Agent(config, { session });
    const first = await drain(agent.run('call echo'));
    expect(first.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(toolOutputs(first)).toEqual([expect.stringMatching(/^Invalid parameters: .*deeper than 100 levels/)]);
    expect(runs).toEqual([]);
    const second = await drain(agent.run('once more'));
    expect(second.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'again' } });
    await session.close();
    const loaded = await Session.load(store, 'deep-args', { config, client, registry });
    expect(loaded.journalLength).toBe(session.journalLength);
    await loaded.close();
  });

  it('answers deep arguments sent as text the same way, and runs a flat call after', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const runs: unknown[] = [];
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'a', name: 'echo', arguments: `{"value":${nested(DEEP)}}` }),
        StreamEvent.toolCallComplete({ callId: 'b', name: 'echo', arguments: `{"value":${nested(99)}}` }),
        StreamEvent.messageComplete(use(3, 1)),
      ],
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete(use(3, 1))],
    ]);
    const session = new Session(config, { client, registry: echoRegistry(config, runs) });
    const events = await drain(new Agent(config, { session }).run('call echo'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(toolOutputs(events)).toEqual([expect.stringMatching(/^Invalid parameters: .*deeper than 100/), 'echoed']);
    expect(runs).toHaveLength(1);
  });

  it('sends a deep structured answer back as Invalid output, and the session runs and loads again', async () => {
    const store = await sqliteStore();
    const config = new Config({ cwd: tempWorkspace() });
    const client = new ScriptedClient([
      [StreamEvent.textDelta(nested(DEEP)), StreamEvent.messageComplete(use(3, 1))],
      [StreamEvent.textDelta('[[1]]'), StreamEvent.messageComplete(use(3, 1))],
      [StreamEvent.textDelta('[2]'), StreamEvent.messageComplete(use(3, 1))],
    ]);
    const session = new Session(config, { client, store, id: 'deep-answer' });
    const agent = new Agent(config, { session });
    const first = await drain(agent.run('answer', { output: z.unknown() }));
    expect(first.at(-1)).toMatchObject({ type: 'agent_end', data: { output: [[1]] } });
    expect(client.requests[1]?.messages.at(-1)?.content).toContain(
      'Invalid output: the answer nests arrays and objects deeper than 100 levels',
    );
    const second = await drain(agent.run('again', { output: z.array(z.number()) }));
    expect(second.at(-1)).toMatchObject({ type: 'agent_end', data: { output: [2] } });
    await session.close();
    const loaded = await Session.load(store, 'deep-answer', { config, client });
    expect(loaded.journalLength).toBe(session.journalLength);
    await loaded.close();
  });

  it('checks a 40 KB answer of [ within a 5 s budget: it is sent back, not parsed from every bracket', async () => {
    const config = new Config({ cwd: tempWorkspace(), maxWallClockMs: 5000 });
    const client = new ScriptedClient([
      [StreamEvent.textDelta('['.repeat(40_000)), StreamEvent.messageComplete(use(3, 1))],
      [StreamEvent.textDelta('{}'), StreamEvent.messageComplete(use(3, 1))],
    ]);
    const session = new Session(config, { client });
    const events = await drain(new Agent(config, { session }).run('answer', { output: z.object({}) }));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { output: {} } });
    expect(client.requests[1]?.messages.at(-1)?.content).toContain('deeper than 100 levels');
  });
});
