// docs/approval.md "Sub-agents": a child's `ask` reaches the parent's approver as the same
// `tool_approval_request` with a `path`, and the parent's `approve(callId)` / `deny(callId)`
// decide it. Call ids are the models' own, so two sub-agents running at once may both ask about
// a call `w1`: each request must still be decidable, one decision per request, in request order.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, agentTool, Config, defineTool, ToolKind, ToolRegistry } from '../../src/index.js';
import { callChunk, doneChunk, FnClient, textChunk } from '../support/runs.js';

/** A sub-agent whose model asks once for `write_note` with the call id `w1`. */
function writer(name: string, notes: string[]) {
  return agentTool({
    name,
    description: `Writes as ${name}.`,
    config: new Config(),
    concurrencySafe: true,
    client: new FnClient((n, messages) =>
      n === 1
        ? [callChunk('w1', 'write_note', { text: name }), doneChunk()]
        : [textChunk(`${name}: ${messages.at(-1)?.content}`), doneChunk()],
    ),
    registry: new ToolRegistry().register(
      defineTool({
        name: 'write_note',
        description: 'Writes a note.',
        kind: ToolKind.WRITE,
        schema: z.object({ text: z.string() }),
        execute: ({ params }) => {
          notes.push(params.text);
          return 'written';
        },
      }),
    ),
  });
}

describe('two sub-agents waiting on the same call id', () => {
  it('are decided one request each, in the order they asked, and the run ends', async () => {
    const notes: string[] = [];
    const agent = new Agent(
      new Config({ permissions: { write: 'ask', a: 'allow', b: 'allow' }, budget: { maxWallClockMs: 5_000 } }),
      {
        client: new FnClient((n, messages) =>
          n === 1
            ? [callChunk('ha', 'a', { task: 'write' }), callChunk('hb', 'b', { task: 'write' }), doneChunk()]
            : [
                textChunk(
                  messages
                    .slice(-2)
                    .map((message) => message.content)
                    .join(' | '),
                ),
                doneChunk(),
              ],
        ),
        registry: new ToolRegistry().register(writer('a', notes), writer('b', notes)),
      },
    );
    const asked: unknown[] = [];
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type !== 'tool_approval_request') continue;
      asked.push(event.data.path);
      if (asked.length === 2) {
        agent.approve('w1');
        agent.deny('w1', 'one note is enough');
      }
    }
    expect(asked).toEqual([['a'], ['b']]);
    expect(notes).toEqual(['a']);
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { response: 'a: written | b: Error: denied: one note is enough' },
    });
  }, 20_000);
});
