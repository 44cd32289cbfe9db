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

/**
 * How the model's stream arrives: a socket's pace (a macrotask per event), a `ScriptedClient`
 * (an async generator), or a client that returns a plain iterable (no microtask between events).
 */
type Pace = 'network' | 'scripted' | 'sync';
const PACES: readonly Pace[] = ['network', 'scripted', 'sync'];

/** An agent whose model streams `first`, then answers, at `pace`. */
function deltaAgent(first: StreamEvent[], pace: Pace) {
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
  let pulled = 0;
  function* counted(turn: readonly StreamEvent[]) {
    for (const event of turn) {
      pulled++;
      yield event;
    }
  }
  const clients = {
    network: {
      async *chatCompletion() {
        for (const event of counted(turns[requests++] ?? [])) {
          await new Promise((resolve) => setImmediate(resolve));
          yield event;
        }
      },
    },
    scripted: new ScriptedClient([() => counted(first), textTurn('done')]),
    sync: { chatCompletion: () => counted(turns[requests++] ?? []) },
  };
  const client = clients[pace];
  const made = makeAgent(client, [note], { cwd: tempWorkspace() });
  return {
    ...made,
    ran,
    requests: () => (pace === 'scripted' ? clients.scripted.calls : requests),
    /** Resolves once the first turn was read to its end. */
    streamed: async () => {
      while (pulled < first.length) await pause(1);
    },
  };
}

const DELTA_TYPES = new Set(['text_delta', 'reasoning_delta', 'tool_call_delta']);

describe('a turn with no text, its deltas not held for the reader of run()', () => {
  for (const [name, turn] of [
    ['tool_call_delta', argumentsTurn],
    ['reasoning_delta', reasoningTurn],
  ] as const) {
    for (const pace of PACES) {
      const how = `a ${pace} stream`;
      it(`no tool starts while the reader works on a ${name} (${how})`, async () => {
        const { agent, ran, requests } = deltaAgent(turn(), pace);
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
        const { agent, session, ran, requests } = deltaAgent(turn(), pace);
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

describe('a subscriber added while the reader of run() works on a delta', () => {
  for (const pace of PACES) {
    const how = `a ${pace} stream`;
    it(`sees every event the reader takes after the deltas queued for it (${how})`, async () => {
      const turn = [
        StreamEvent.textDelta('a'),
        StreamEvent.textDelta('b'),
        StreamEvent.textDelta('c'),
        StreamEvent.messageComplete(),
      ];
      const { agent, streamed } = deltaAgent(turn, pace);
      const late: string[] = [];
      const read: string[] = [];
      let subscribed = false;
      const label = (event: { type: string; data?: unknown }) =>
        event.type === 'text_delta' ? `delta ${(event.data as { content: string }).content}` : event.type;
      for await (const event of agent.run('go')) {
        if (subscribed) read.push(label(event));
        if (event.type === 'text_delta' && !subscribed) {
          await streamed(); // the reader works on the first delta
          agent.events.subscribe((seen) => {
            late.push(label(seen));
          });
          subscribed = true;
        }
      }
      // The stream was read ahead of the reader: 'b' and 'c' had passed the bus before it subscribed.
      expect(read).toEqual(['delta b', 'delta c', 'text_complete', 'agent_end']);
      expect(late).toEqual(['text_complete', 'agent_end']);
    });
  }
});

describe('agent.abort() while deltas are queued for the reader of run()', () => {
  for (const pace of PACES) {
    const how = `a ${pace} stream`;
    it(`reading on, the reader gets the queued deltas, then agent_error aborted (${how})`, async () => {
      const { agent, session, ran, requests } = deltaAgent(argumentsTurn(), pace);
      const types: string[] = [];
      for await (const event of agent.run('go')) {
        types.push(event.type);
        if (event.type === 'tool_call_delta' && types.filter((type) => type === 'tool_call_delta').length === 1) {
          await pause(5);
          agent.abort('stop');
        }
      }
      expect(types.at(-1)).toBe('agent_error');
      expect(types).not.toContain('tool_call_start');
      expect(ran).toEqual([]);
      expect(requests()).toBe(1);
      expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
    });

    it(`the run ends without waiting for the reader to ask again (${how})`, async () => {
      const { agent, session, ran } = deltaAgent(argumentsTurn(), pace);
      const events = agent.run('go');
      let step = await events.next();
      while (!step.done && step.value.type !== 'tool_call_delta') step = await events.next();
      agent.abort('stop');
      for (let waited = 0; session.journal.at(-1)?.type !== 'agent_error' && waited < 2000; waited += 5) await pause(5);
      expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'aborted' });
      expect(ran).toEqual([]);
      const rest = [];
      for await (const event of events) rest.push(event.type);
      expect(rest.at(-1)).toBe('agent_error');
      expect(agent.state).toBeUndefined();
    });
  }
});
