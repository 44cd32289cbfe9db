import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, ScriptedClient, Session, stableJson } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

const Answer = z.object({ city: z.string(), celsius: z.number() });

describe('agent.run(input, { output })', () => {
  it('parses a matching final answer into agent_end.data.output, journaled so replay has it', async () => {
    const client = new ScriptedClient([
      toolTurn('a', 'checkpoint', { step: 1 }),
      textTurn('{"city":"Lyon","celsius":18}'),
    ]);
    const { agent, session, config } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const events = await collect(agent.run('weather?', { output: Answer }));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent_end', data: { output: { city: 'Lyon', celsius: 18 }, turnCount: 2 } });
    // The schema went with every request, as JSON Schema.
    expect(client.requests[0]?.output).toMatchObject({ name: 'final_answer', schema: { type: 'object' } });
    expect(session.journal.at(-1)).toEqual({
      type: 'agent_end',
      response: '{"city":"Lyon","celsius":18}',
      output: { city: 'Lyon', celsius: 18 },
    });
    const replayed = Session.replay(JSON.parse(JSON.stringify(session.journal)), config);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
    expect(replayed.lastOutput).toEqual({ city: 'Lyon', celsius: 18 });
  });

  it('types the output from the schema', async () => {
    const { agent } = makeAgent(new ScriptedClient([textTurn('{"city":"Oslo","celsius":-3}')]), [], {
      cwd: tempWorkspace(),
    });
    for await (const event of agent.run('weather?', { output: Answer })) {
      if (event.type === 'agent_end') {
        const celsius: number = event.data.output.celsius;
        expect(celsius).toBe(-3);
      }
    }
  });

  it('sends a failing answer back with the validation message, counting the retry as a turn', async () => {
    const client = new ScriptedClient([
      textTurn('It is sunny in Lyon.'),
      textTurn('{"city":"Lyon","celsius":"warm"}'),
      textTurn('```json\n{"city":"Lyon","celsius":21}\n```'),
    ]);
    const { agent, session, config } = makeAgent(client, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('weather?', { output: Answer }));
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      data: { output: { city: 'Lyon', celsius: 21 }, turnCount: 3 },
    });
    const second = client.requests[1]?.messages ?? [];
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'It is sunny in Lyon.' });
    expect(second.at(-1)).toMatchObject({
      role: 'user',
      author: 'harness',
      content: expect.stringContaining('Invalid output: the answer is not JSON'),
    });
    const third = client.requests[2]?.messages ?? [];
    expect(third.at(-1)?.content).toContain('Invalid output: celsius:');
    expect(session.turnCount).toBe(3);
  });

  it('ends with output_invalid once outputRetries are used up', async () => {
    const client = new ScriptedClient([textTurn('nope'), textTurn('still no'), textTurn('never')]);
    const { agent, session, config } = makeAgent(client, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('weather?', { output: Answer, outputRetries: 1 }));
    expect(checkLoopInvariants(session.journal, { config, events })).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: 'agent_error',
      data: {
        reason: 'output_invalid',
        message:
          'the final answer did not match the output schema after 2 tries: Invalid output: the answer is not JSON',
      },
    });
    expect(client.calls).toBe(2);
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'output_invalid' });
  });

  it('counts retries against the turn budget', async () => {
    const client = new ScriptedClient([textTurn('nope'), textTurn('never')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace(), maxTurns: 1 });
    const events = await collect(agent.run('weather?', { output: Answer }));
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'turn_budget' } });
    expect(client.calls).toBe(1);
  });

  it('without output, a run is as before (no output field, nothing sent)', async () => {
    const client = new ScriptedClient([textTurn('plain')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const events = await collect(agent.run('hi'));
    expect(events.at(-1)).toEqual({
      type: 'agent_end',
      data: { response: 'plain', usage: expect.any(Object), turnCount: 1 },
    });
    expect(client.requests[0]).not.toHaveProperty('output');
  });

  it('refuses a bad output or outputRetries with invalid_argument naming the option', () => {
    const agent = new Agent(new Config({ cwd: tempWorkspace() }), { client: new ScriptedClient([]) });
    expect(() => agent.run('x', { output: {} as z.ZodType })).toThrow(
      expect.objectContaining({ reason: 'invalid_argument', message: expect.stringContaining('output') }),
    );
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => agent.run('x', { output: Answer, outputRetries: bad })).toThrow(
        expect.objectContaining({ reason: 'invalid_argument', message: expect.stringContaining('outputRetries') }),
      );
    }
  });
});
