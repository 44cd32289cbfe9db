import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  HarnessError,
  ScriptedClient,
  Session,
  StreamEvent,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { callChunk, doneChunk, drain, FnClient, textChunk, workspace } from '../support/runs.js';

describe('contract §4 backpressure', () => {
  it('the next model request waits until a slow subscriber has handled the previous events', async () => {
    const log: string[] = [];
    const client = new FnClient((n) => {
      log.push(`request ${n}`);
      return n === 1 ? [callChunk('a', 'missing', {}), doneChunk()] : [textChunk('end'), doneChunk()];
    });
    const config = new Config({ cwd: workspace() });
    const agent = new Agent(config, { session: new Session(config, { client }) });
    agent.events.subscribe(async (event) => {
      if (event.type !== 'tool_call_complete') return;
      await new Promise((resolve) => setTimeout(resolve, 3));
      log.push('slow subscriber done');
    });
    await drain(agent.run('go'));
    expect(log).toEqual(['request 1', 'slow subscriber done', 'request 2']);
  });
});

describe('contract §4 the journal is the durable part of the stream', () => {
  it('the transitions on stream$ are the transitions in the journal, in the same order', async () => {
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete({ callId: 'a', name: 'missing', arguments: {} }), StreamEvent.messageComplete()],
      [StreamEvent.textDelta('end'), StreamEvent.messageComplete()],
    ]);
    const config = new Config({ cwd: workspace() });
    const session = new Session(config, { client });
    const agent = new Agent(config, { session });
    const streamed: unknown[] = [];
    const sub = agent.stream$.subscribe(({ entry }) => {
      if (entry.type === 'transition') streamed.push(entry);
    });
    await drain(agent.run('go'));
    sub.unsubscribe();
    expect(streamed).toEqual(session.journal.filter((entry) => entry.type === 'transition'));
    expect(streamed.length).toBeGreaterThan(0);
  });
});

describe('contract §5 concurrency where the tool says it is safe', () => {
  it('a non-read tool marked concurrencySafe runs beside others', async () => {
    let running = 0;
    let peak = 0;
    const config = new Config({ cwd: workspace() });
    const registry = new ToolRegistry(config);
    registry.register(
      defineTool({
        name: 'fetch',
        description: 'Network, but safe to run in parallel.',
        kind: ToolKind.NETWORK,
        concurrencySafe: true,
        schema: z.object({}),
        execute: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
          return 'fetched';
        },
      }),
    );
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'f1', name: 'fetch', arguments: {} }),
        StreamEvent.toolCallComplete({ callId: 'f2', name: 'fetch', arguments: {} }),
        StreamEvent.messageComplete(),
      ],
      [StreamEvent.textDelta('done'), StreamEvent.messageComplete()],
    ]);
    await drain(new Agent(config, { session: new Session(config, { client, registry }) }).run('go'));
    expect(peak).toBe(2);
  });
});

describe('contract §3 replay refuses a malformed journal', () => {
  it('throws a HarnessError naming the bad entry', () => {
    const config = new Config({ cwd: workspace() });
    const journal = [
      { type: 'user_message', content: 'hi' },
      { type: 'tool_result', callId: 7 },
    ];
    expect(() => Session.replay(journal, config)).toThrow(/entry 1/);
    try {
      Session.replay(journal, config);
    } catch (error) {
      expect(HarnessError.isInstance(error)).toBe(true);
    }
  });
});
