import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, stopChild } from 'xstate';
import { ToolResult } from '../../src/index.js';
import type { ToolSettledEvent } from '../../src/machine.js';
import { toolActorLogic } from '../../src/machines/tool-actor-logic.js';

const call = { callId: 'a', name: 'look', arguments: {} };

function harness() {
  const settles: ((event: ToolSettledEvent) => void)[] = [];
  const logic = toolActorLogic((_input, settle) => settles.push(settle));
  const machine = setup({
    types: { context: {} as { received: number[] }, events: {} as ToolSettledEvent | { type: 'STOP' } },
    actors: { tool: logic },
  }).createMachine({
    context: { received: [] },
    entry: assign(({ spawn }) => {
      spawn('tool', { id: 't0', input: { call, index: 0 } });
      spawn('tool', { id: 't1', input: { call, index: 1 } });
      return {};
    }),
    on: {
      TOOL_SETTLED: { actions: assign({ received: ({ context, event }) => [...context.received, event.index] }) },
      STOP: { actions: stopChild('t1') },
    },
  });
  return { actor: createActor(machine).start(), settles };
}

const settled = (index: number): ToolSettledEvent => ({
  type: 'TOOL_SETTLED',
  index,
  result: ToolResult.success('ok'),
  elapsedMs: 0,
});

describe('toolActorLogic', () => {
  it('starts its call once per spawned actor and sends the settled result to the machine', () => {
    const { actor, settles } = harness();
    expect(settles).toHaveLength(2);
    settles[0]?.(settled(0));
    expect(actor.getSnapshot().context.received).toEqual([0]);
    expect(actor.getSnapshot().children.t0?.getSnapshot().status).toBe('active');
  });

  it('drops a result that settles after the machine stopped the actor', () => {
    const { actor, settles } = harness();
    const t1 = actor.getSnapshot().children.t1;
    actor.send({ type: 'STOP' });
    expect(t1?.getSnapshot().status).toBe('stopped');
    settles[1]?.(settled(1));
    expect(actor.getSnapshot().context.received).toEqual([]);
  });

  it('sends the result as coming from the tool actor, for inspection', () => {
    const sources: unknown[] = [];
    const settles: ((event: ToolSettledEvent) => void)[] = [];
    const machine = setup({
      types: { events: {} as ToolSettledEvent },
      actors: { tool: toolActorLogic((_input, settle) => settles.push(settle)) },
    }).createMachine({
      entry: assign(({ spawn }) => {
        spawn('tool', { id: 't0', input: { call, index: 0 } });
        return {};
      }),
    });
    createActor(machine, {
      inspect: (event) => {
        if (event.type === '@xstate.event' && event.event.type === 'TOOL_SETTLED')
          sources.push((event.sourceRef as { id?: string } | undefined)?.id);
      },
    }).start();
    settles[0]?.(settled(0));
    expect(sources).toEqual(['t0']);
  });

  it("aborts the call's own signal when the machine stops the actor, saying so, and only that call's", () => {
    const signals: AbortSignal[] = [];
    const logic = toolActorLogic((_input, _settle, _system, abort) => signals.push(abort.signal));
    const machine = setup({ types: { events: {} as { type: 'STOP' } }, actors: { tool: logic } }).createMachine({
      entry: assign(({ spawn }) => {
        spawn('tool', { id: 't0', input: { call, index: 0 } });
        spawn('tool', { id: 't1', input: { call, index: 1 } });
        return {};
      }),
      on: { STOP: { actions: stopChild('t1') } },
    });
    createActor(machine).start().send({ type: 'STOP' });
    expect(signals.map((signal) => [signal.aborted, signal.reason])).toEqual([
      [false, undefined],
      [true, 'the tool call was stopped'],
    ]);
  });

  it('persists a running call as its status and input, without its AbortController', () => {
    const { actor } = harness();
    const persisted = actor.getPersistedSnapshot() as unknown as { children: Record<string, { snapshot: unknown }> };
    expect(persisted.children.t0?.snapshot).toEqual({
      status: 'active',
      output: undefined,
      error: undefined,
      input: { call, index: 0 },
    });
  });
});
