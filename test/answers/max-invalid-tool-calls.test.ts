import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session, stableJson } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const bad = (id: string) => toolTurn(id, 'checkpoint', { step: 'one' });
const good = (id: string) => toolTurn(id, 'checkpoint', { step: 1 });

function lastData(events: readonly { type: string; data: unknown }[]) {
  return events.at(-1);
}

describe('Config maxInvalidToolCalls', () => {
  it('ends the run after 3 invalid calls to one tool, naming the tool and the last validation error', async () => {
    const client = new ScriptedClient([bad('a'), bad('b'), bad('c'), bad('d'), textTurn('never')]);
    const { agent, session, config } = makeAgent(client, [() => new CheckpointTool()], {
      cwd: tempWorkspace(),
      maxTurns: 20,
    });
    const events = await collect(agent.run('checkpoint'));
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    expect(lastData(events)).toEqual({
      type: 'agent_error',
      data: {
        reason: 'invalid_tool_calls',
        message: expect.stringMatching(
          /^the model sent 3 invalid calls to 'checkpoint' in a row; the last: Invalid parameters: step: /,
        ),
      },
    });
    expect(client.calls).toBe(3);
    // Every call still has its one result.
    expect(session.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'invalid_tool_calls' });
  });

  it('counts calls to an unknown tool and arguments that are not JSON as invalid', async () => {
    const client = new ScriptedClient([
      toolTurn('a', 'nope', {}),
      toolTurn('b', 'nope', {}),
      toolTurn('c', 'checkpoint', '{not json'),
      toolTurn('d', 'checkpoint', '{not json'),
      textTurn('never'),
    ]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], {
      cwd: tempWorkspace(),
      maxTurns: 20,
      maxInvalidToolCalls: 2,
    });
    const events = await collect(agent.run('go'));
    expect(lastData(events)).toMatchObject({
      type: 'agent_error',
      data: { reason: 'invalid_tool_calls', message: expect.stringContaining("to 'nope'") },
    });
    expect(client.calls).toBe(2);
  });

  it('resets the count of a tool when a call to it succeeds', async () => {
    const client = new ScriptedClient([bad('a'), bad('b'), good('c'), bad('d'), bad('e'), textTurn('fine')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace(), maxTurns: 20 });
    const events = await collect(agent.run('checkpoint'));
    expect(lastData(events)).toMatchObject({ type: 'agent_end', data: { response: 'fine' } });
  });

  it('counts per run: a new run starts at none', async () => {
    const client = new ScriptedClient([bad('a'), bad('b'), textTurn('gave up'), bad('c'), bad('d'), textTurn('again')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace(), maxTurns: 20 });
    expect(lastData(await collect(agent.run('one')))).toMatchObject({ type: 'agent_end' });
    expect(lastData(await collect(agent.run('two')))).toMatchObject({ type: 'agent_end' });
  });

  it('counts the calls of one turn in call order', async () => {
    const { StreamEvent } = await import('../../src/index.js');
    const turn = [
      StreamEvent.toolCallComplete({ callId: 'a', name: 'checkpoint', arguments: { step: 'x' } }),
      StreamEvent.toolCallComplete({ callId: 'b', name: 'checkpoint', arguments: { step: 'y' } }),
      StreamEvent.toolCallComplete({ callId: 'c', name: 'checkpoint', arguments: { step: 'z' } }),
      StreamEvent.messageComplete({ promptTokens: 1, completionTokens: 1, totalTokens: 2 }),
    ];
    const client = new ScriptedClient([turn, textTurn('never')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const events = await collect(agent.run('go'));
    expect(lastData(events)).toMatchObject({ type: 'agent_error', data: { reason: 'invalid_tool_calls' } });
    expect(events.filter((e) => e.type === 'tool_call_complete')).toHaveLength(3);
  });

  it('replays to a byte-identical journal, and a resumed run goes on with its count', async () => {
    const cwd = tempWorkspace();
    const client = new ScriptedClient([bad('a'), bad('b'), bad('c')]);
    const { agent, session, config, registry } = makeAgent(client, [() => new CheckpointTool()], { cwd, maxTurns: 2 });
    const events = await collect(agent.run('checkpoint'));
    expect(lastData(events)).toMatchObject({ type: 'agent_error', data: { reason: 'turn_budget' } });
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config, {});
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));

    // Resumed with more turns: the two invalid calls so far count, so one more ends the run.
    const more = new Config({ cwd, maxTurns: 10 });
    const resumed = Session.replay(session.journal, more, {
      client: new ScriptedClient([bad('c'), textTurn('no')]),
      registry,
    });
    const again = await collect(new Agent(more, { session: resumed }).resume());
    expect(lastData(again)).toMatchObject({ type: 'agent_error', data: { reason: 'invalid_tool_calls' } });
  });

  it('is refused unless a positive integer, naming the option', () => {
    for (const value of [0, -3, 1.5]) {
      expect(() => new Config({ maxInvalidToolCalls: value })).toThrow(
        expect.objectContaining({ reason: 'invalid_config', message: expect.stringContaining('maxInvalidToolCalls') }),
      );
    }
    expect(new Config().maxInvalidToolCalls).toBe(3);
  });
});
