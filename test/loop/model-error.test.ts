import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session, StreamEvent } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function lastError(events: { type: string; data: unknown }[]) {
  const last = events.at(-1);
  return last?.type === 'agent_error' ? (last.data as { reason: string; message: string }) : undefined;
}

describe('Agent model failures', () => {
  it('usage the model got wrong ends with model_error (not internal_error) and records nothing of the turn', async () => {
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'checkpoint', arguments: { step: 1 } }),
        { type: 'message_complete', usage: { promptTokens: 5, completionTokens: 2.5 } } as unknown as StreamEvent,
      ],
    ]);
    const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    expect(lastError(events)).toEqual({
      reason: 'model_error',
      message: 'the model reported invalid usage: completionTokens must be a non-negative integer, got 2.5',
    });
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
    expect(session.totalUsage.totalTokens).toBe(0);
  });

  it('a stream that throws mid-turn ends with model_error and leaves no half-written assistant message', async () => {
    const broken = async function* () {
      yield StreamEvent.textDelta('partial ');
      yield StreamEvent.toolCallComplete({ callId: 'c1', name: 'checkpoint', arguments: { step: 1 } });
      throw new Error('connection reset');
    };
    const { agent, session } = makeAgent(new ScriptedClient([() => broken()]), [() => new CheckpointTool()], {
      cwd: tempWorkspace(),
    });
    const events = await collect(agent.run('go'));
    expect(lastError(events)).toEqual({ reason: 'model_error', message: 'connection reset' });
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
    expect(events.some((event) => event.type === 'text_complete' || event.type === 'tool_call_start')).toBe(false);
    expect(session.journal.filter((entry) => entry.type === 'assistant_message')).toHaveLength(0);
  });

  it('an error event in the stream ends with model_error carrying the provider message', async () => {
    const client = new ScriptedClient([[StreamEvent.textDelta('a'), StreamEvent.error('overloaded', '529')]]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    expect(lastError(events)).toEqual({ reason: 'model_error', message: 'overloaded (529)' });
  });

  it('a client whose chatCompletion throws synchronously is a model_error, not a crash', async () => {
    const client = {
      chatCompletion(): never {
        throw new Error('bad api key');
      },
    };
    const config = new Config({ cwd: tempWorkspace() });
    const events = await collect(new Agent(config, { session: new Session(config, { client }) }).run('go'));
    expect(lastError(events)).toEqual({ reason: 'model_error', message: 'bad api key' });
  });

  it('a script that runs out is a clear model_error after the recorded turns', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 })]);
    const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    expect(lastError(events)?.message).toMatch(/request 2 arrived but the script has only 1 turn/);
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('two tool calls with one id are refused as a model_error', async () => {
    const call = { callId: 'same', name: 'checkpoint', arguments: { step: 1 } };
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete(call), StreamEvent.toolCallComplete(call), StreamEvent.messageComplete()],
    ]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    expect(lastError(await collect(agent.run('go')))?.message).toContain("two tool calls with the id 'same'");
  });

  it('accepts a streamed tool call that names its id `id` instead of `callId`', async () => {
    const call = { id: 'c1', name: 'checkpoint', arguments: { step: 1 } } as never;
    const client = new ScriptedClient([
      [StreamEvent.toolCallComplete(call), StreamEvent.messageComplete()],
      textTurn('ok'),
    ]);
    const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    expect((await collect(agent.run('go'))).at(-1)?.type).toBe('agent_end');
    expect(session.messages.at(-1)).toMatchObject({ role: 'tool', callId: 'c1' });
  });

  it('after a model error the session can run again: a follow-up run continues the conversation', async () => {
    const client = new ScriptedClient([[StreamEvent.error('flaky')], textTurn('second time lucky')]);
    const { agent, session } = makeAgent(client, [], { cwd: tempWorkspace() });
    await collect(agent.run('first'));
    const events = await collect(agent.run('again'));
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(client.requests[1]?.messages.map((message) => message.content)).toEqual(['first', 'again']);
    expect(session.turnCount).toBe(2);
  });
});
