import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Config, defineTool, ScriptedClient, StreamEvent, ToolKind } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { collect, makeAgent, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

/** A read tool that records how many of its calls run at once, and finishes after `ms`. */
function countingTool(seen: { running: number; most: number; started: string[] }) {
  return defineTool({
    name: 'look',
    description: 'Looks at something.',
    kind: ToolKind.READ,
    schema: z.object({ n: z.number() }),
    execute: async ({ params }) => {
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      seen.started.push(String(params.n));
      // Later calls finish first: results must still be reported in call order.
      await new Promise((resolve) => setTimeout(resolve, 1 + ((40 - params.n) % 5)));
      seen.running--;
      return `looked at ${params.n}`;
    },
  });
}

function fortyCalls() {
  return [
    ...Array.from({ length: 40 }, (_, n) =>
      StreamEvent.toolCallComplete({ callId: `c${n}`, name: 'look', arguments: { n } }),
    ),
    StreamEvent.messageComplete(usage(5, 2)),
  ];
}

describe('Config maxParallelTools', () => {
  it('runs at most 8 concurrency-safe calls at once by default, and reports results in call order', async () => {
    const seen = { running: 0, most: 0, started: [] as string[] };
    const { agent, session, config } = makeAgent(
      new ScriptedClient([fortyCalls(), textTurn('done')]),
      [() => countingTool(seen)],
      { cwd: tempWorkspace() },
    );
    const events = await collect(agent.run('look at forty things'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(seen.most).toBe(8);
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    const completed = events.flatMap((event) => (event.type === 'tool_call_complete' ? [event.data.callId] : []));
    expect(completed).toEqual(Array.from({ length: 40 }, (_, n) => `c${n}`));
    expect(session.messages.filter((m) => m.role === 'tool').map((m) => m.callId)).toEqual(completed);
    expect(seen.started).toEqual(Array.from({ length: 40 }, (_, n) => String(n)));
  });

  it('takes another cap, and a cap of 1 runs the batch one call at a time', async () => {
    for (const cap of [1, 3]) {
      const seen = { running: 0, most: 0, started: [] as string[] };
      const { agent } = makeAgent(new ScriptedClient([fortyCalls(), textTurn('done')]), [() => countingTool(seen)], {
        cwd: tempWorkspace(),
        maxParallelTools: cap,
      });
      const events = await collect(agent.run('look'));
      expect(events.at(-1)?.type).toBe('agent_end');
      expect(seen.most).toBe(cap);
    }
  });

  it('is refused unless a positive integer, naming the option', () => {
    for (const bad of [0, -1, 2.5, Number.NaN, '4' as unknown as number]) {
      expect(() => new Config({ maxParallelTools: bad })).toThrow(
        expect.objectContaining({ reason: 'invalid_config', message: expect.stringContaining('maxParallelTools') }),
      );
    }
    expect(new Config().maxParallelTools).toBe(8);
  });
});
