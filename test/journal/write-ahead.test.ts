import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type JournalEntry,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { ScriptedClient } from '../../src/testing/index.js';
import { tempWorkspace } from '../support/workspace.js';

/** A write tool that counts its side effects per call id, taking `ms` to finish. */
function writes(effects: Map<string, number>) {
  return defineTool({
    name: 'write',
    description: 'writes',
    kind: ToolKind.WRITE,
    schema: z.object({ ms: z.number() }),
    execute: async ({ params, callId }) => {
      effects.set(callId, (effects.get(callId) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, params.ms));
      return `wrote ${callId}`;
    },
  });
}

const twoWrites = [
  StreamEvent.toolCallComplete({ callId: 'w1', name: 'write', arguments: { ms: 10 } }),
  StreamEvent.toolCallComplete({ callId: 'w2', name: 'write', arguments: { ms: 300 } }),
  StreamEvent.messageComplete(),
];

describe('write-ahead tool entries', () => {
  it('journals each result as its call settles: a crash cut right after the first of two writes resumes without running it again', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const effects = new Map<string, number>();
    const registry = new ToolRegistry(config).register(writes(effects));
    const session = new Session(config, {
      client: new ScriptedClient([twoWrites, [StreamEvent.textDelta('done'), StreamEvent.messageComplete()]]),
      registry,
    });
    let cut: JournalEntry[] | undefined;
    session.onAppend((entry) => {
      if (cut === undefined && entry.type === 'tool_result' && entry.callId === 'w1') cut = session.journal.slice();
    });
    const agent = new Agent(config, { session });
    for await (const _ of agent.run('write both')) {
      // run to the end; the cut is what a kill -9 right after w1 settled leaves
    }
    expect(cut?.at(-1)).toEqual({ type: 'tool_result', callId: 'w1', content: 'wrote w1' });
    expect(cut?.some((entry) => entry.type === 'tool_started' && entry.callId === 'w2')).toBe(false);

    const afterCrash = new Map<string, number>();
    const resumedRegistry = new ToolRegistry(config).register(writes(afterCrash));
    const client = new ScriptedClient([[StreamEvent.textDelta('both written'), StreamEvent.messageComplete()]]);
    const restored = Session.replay(cut as JournalEntry[], config, { client, registry: resumedRegistry });
    expect(restored.pendingToolCalls().map((call) => call.callId)).toEqual(['w2']);
    const resumed = new Agent(config, { session: restored });
    const events = [];
    for await (const event of resumed.resume()) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'both written' } });
    expect([...afterCrash]).toEqual([['w2', 1]]); // w1 is never run again
    expect(restored.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['wrote w1', 'wrote w2']);
  });

  it('journals a tool_started entry before the tool runs, and keeps the model order in the context when calls settle out of order', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const order: string[] = [];
    const slowFirst = defineTool({
      name: 'read',
      description: 'reads',
      kind: ToolKind.READ,
      schema: z.object({ ms: z.number() }),
      execute: async ({ params, callId }) => {
        order.push(`run ${callId}`);
        await new Promise((resolve) => setTimeout(resolve, params.ms));
        return `read ${callId}`;
      },
    });
    const registry = new ToolRegistry(config).register(slowFirst);
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'r1', name: 'read', arguments: { ms: 40 } }),
        StreamEvent.toolCallComplete({ callId: 'r2', name: 'read', arguments: { ms: 1 } }),
        StreamEvent.messageComplete(),
      ],
      [StreamEvent.textDelta('ok'), StreamEvent.messageComplete()],
    ]);
    const session = new Session(config, { client, registry });
    session.onAppend((entry) => {
      if (entry.type === 'tool_started') order.push(`journal start ${entry.callId}`);
      if (entry.type === 'tool_result') order.push(`journal result ${entry.callId}`);
    });
    const agent = new Agent(config, { session });
    for await (const _ of agent.run('read both')) {
      // to the end
    }
    expect(order).toEqual([
      'journal start r1',
      'run r1',
      'journal start r2',
      'run r2',
      'journal result r2', // settled first, journaled first
      'journal result r1',
    ]);
    const toolMessages = client.requests[1]?.messages.filter((m) => m.role === 'tool');
    expect(toolMessages?.map((m) => (m.role === 'tool' ? m.callId : ''))).toEqual(['r1', 'r2']);
  });
});

describe('resume of calls in doubt', () => {
  it('runs a started read call again, answers a started write call `Error: interrupted` without running it, and runs a never-started call', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const ran: string[] = [];
    const tool = (name: string, kind: (typeof ToolKind)[keyof typeof ToolKind]) =>
      defineTool({
        name,
        description: name,
        kind,
        schema: z.object({}),
        execute: ({ callId }) => {
          ran.push(callId);
          return `${name} ${callId} done`;
        },
      });
    const registry = new ToolRegistry(config).register(tool('look', ToolKind.READ), tool('send', ToolKind.WRITE));
    const calls = [
      { callId: 'r1', name: 'look', arguments: {} },
      { callId: 'w1', name: 'send', arguments: {} },
      { callId: 'w2', name: 'send', arguments: {} },
    ];
    // What a kill -9 while r1 and w1 were running leaves: both started, no result; w2 never started.
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      { type: 'assistant_message', content: '', toolCalls: calls },
      { type: 'tool_started', callId: 'r1' },
      { type: 'tool_started', callId: 'w1' },
    ];
    const client = new ScriptedClient([[StreamEvent.textDelta('ok'), StreamEvent.messageComplete()]]);
    const session = Session.replay(journal, config, { client, registry });
    for await (const _ of new Agent(config, { session }).resume()) {
      // to the end
    }
    expect(ran).toEqual(['r1', 'w2']);
    const results = session.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('look r1 done');
    expect(results[1]).toMatch(/^Error: interrupted: .*may or may not have taken effect/);
    expect(results[2]).toBe('send w2 done');
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_end', response: 'ok' });
  });
});
