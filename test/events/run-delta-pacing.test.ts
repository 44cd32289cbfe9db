import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ScriptedClient, StreamEvent, ToolKind } from '../../src/index.js';
import { makeAgent, textTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A turn with no text: the call's arguments streamed as deltas, then the call. */
function argumentsTurn(): StreamEvent[] {
  return [
    StreamEvent.toolCallDelta({ callId: 'c1', name: 'note', argumentsDelta: '{"id":' }),
    StreamEvent.toolCallDelta({ callId: 'c1', name: 'note', argumentsDelta: '"c1"' }),
    StreamEvent.toolCallDelta({ callId: 'c1', name: 'note', argumentsDelta: '}' }),
    StreamEvent.toolCallComplete({ callId: 'c1', name: 'note', arguments: { id: 'c1' } }),
    StreamEvent.messageComplete(),
  ];
}

/** A turn with no text: reasoning streamed as deltas, then a call. */
function reasoningTurn(): StreamEvent[] {
  return [
    StreamEvent.reasoningDelta('think'),
    StreamEvent.reasoningDelta('ing'),
    StreamEvent.toolCallComplete({ callId: 'c1', name: 'note', arguments: { id: 'c1' } }),
    StreamEvent.messageComplete(),
  ];
}

/** An agent whose model streams `first`, then answers; `network` paces the stream as a socket would. */
function deltaAgent(first: StreamEvent[], { network }: { network: boolean }) {
  const ran: string[] = [];
  const note = () =>
    defineTool({
      name: 'note',
      description: '',
      kind: ToolKind.READ,
      schema: z.object({ id: z.string() }),
      execute: ({ params }) => {
        ran.push(params.id);
        return `noted ${params.id}`;
      },
    });
  const turns = [first, textTurn('done')];
  let requests = 0;
  const networkClient = {
    async *chatCompletion() {
      const turn = turns[requests++] ?? [];
      for (const event of turn) {
        await new Promise((resolve) => setImmediate(resolve));
        yield event;
      }
    },
  };
  const client = network ? networkClient : new ScriptedClient(turns);
  const made = makeAgent(client, [note], { cwd: tempWorkspace() });
  return { ...made, ran, requests: () => (network ? requests : (client as ScriptedClient).calls) };
}

const DELTA_TYPES = new Set(['text_delta', 'reasoning_delta', 'tool_call_delta']);

describe('a turn with no text, its deltas not held for the reader of run()', () => {
  for (const [name, turn] of [
    ['tool_call_delta', argumentsTurn],
    ['reasoning_delta', reasoningTurn],
  ] as const) {
    for (const network of [true, false]) {
      const how = network ? 'a network stream' : 'a scripted stream';
      it(`no tool starts while the reader works on a ${name} (${how})`, async () => {
        const { agent, ran, requests } = deltaAgent(turn(), { network });
        const events = agent.run('go');
        let step = await events.next();
        while (!step.done && !DELTA_TYPES.has(step.value.type)) step = await events.next();
        expect(step.value).toMatchObject({ type: name });
        await pause(20); // the reader works on its first delta
        expect(ran).toEqual([]);
        expect(requests()).toBe(1);
        await events.return(undefined);
      });

      it(`breaking after working on a ${name} ends the run aborted, with no tool started (${how})`, async () => {
        const { agent, session, ran, requests } = deltaAgent(turn(), { network });
        for await (const event of agent.run('go')) {
          if (!DELTA_TYPES.has(event.type)) continue;
          await pause(5); // e.g. a terminal write
          break;
        }
        expect(ran).toEqual([]);
        expect(requests()).toBe(1);
        expect(session.journal.some((entry) => entry.type === 'tool_started')).toBe(false);
        expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
      });
    }
  }
});
