import { describe, expect, it } from 'vitest';
import { AgentEvent, ScriptedClient, StreamEvent } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

describe('tool_call_delta', () => {
  it("passes a client's argument deltas on as agent events, in order, not journaled", async () => {
    const turn = [
      StreamEvent.toolCallDelta({ callId: 'a', name: 'checkpoint', argumentsDelta: '{"st' }),
      StreamEvent.toolCallDelta({ callId: 'a', name: 'checkpoint', argumentsDelta: '' }),
      StreamEvent.toolCallDelta({ callId: 'a', name: 'checkpoint', argumentsDelta: 'ep": 1}' }),
      StreamEvent.toolCallComplete({ callId: 'a', name: 'checkpoint', arguments: { step: 1 } }),
      StreamEvent.messageComplete(usage(3, 2)),
    ];
    const { agent, session, config } = makeAgent(
      new ScriptedClient([turn, textTurn('done')]),
      [() => new CheckpointTool()],
      {
        cwd: tempWorkspace(),
      },
    );
    const seen: AgentEvent[] = [];
    agent.events.subscribe((event) => {
      seen.push(event);
    });
    const events = await collect(agent.run('go'));
    expect(events.slice(1, 4)).toEqual([
      AgentEvent.toolCallDelta({ callId: 'a', name: 'checkpoint', argumentsDelta: '{"st' }),
      AgentEvent.toolCallDelta({ callId: 'a', name: 'checkpoint', argumentsDelta: 'ep": 1}' }),
      AgentEvent.toolCallStart({ callId: 'a', name: 'checkpoint', arguments: { step: 1 } }),
    ]);
    // Subscribers see what run() yields; the journal has none of them.
    expect(seen.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(session.journal.some((entry) => (entry.type as string) === 'tool_call_delta')).toBe(false);
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
  });

  it('skips a malformed delta (a hint), and the call still runs from its tool_call_complete', async () => {
    const turn = [
      { type: 'tool_call_delta', toolCallDelta: { callId: 7 } } as unknown as StreamEvent,
      { type: 'tool_call_delta' } as StreamEvent,
      StreamEvent.toolCallComplete({ callId: 'a', name: 'checkpoint', arguments: { step: 1 } }),
      StreamEvent.messageComplete(usage(3, 2)),
    ];
    const { agent } = makeAgent(new ScriptedClient([turn, textTurn('done')]), [() => new CheckpointTool()], {
      cwd: tempWorkspace(),
    });
    const events = await collect(agent.run('go'));
    expect(events.some((e) => e.type === 'tool_call_delta')).toBe(false);
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});

describe('the loop invariants on argument deltas', () => {
  it('report a delta after its call was announced', async () => {
    const { toolDeltaOrder } = await import('../../src/testing/invariants/event-rules.js');
    const call = { callId: 'a', name: 'checkpoint', arguments: {} };
    const late = [AgentEvent.toolCallStart(call), AgentEvent.toolCallDelta({ ...call, argumentsDelta: '{}' })];
    expect(toolDeltaOrder(late).map((v) => v.message)).toEqual([
      'event 1 (tool_call_delta) for call a after its tool_call_start',
    ]);
    expect(toolDeltaOrder(late.slice().reverse())).toEqual([]);
  });
});
