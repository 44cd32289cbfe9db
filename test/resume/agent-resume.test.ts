import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Config, defineTool, ScriptedClient, Session, StreamEvent, ToolRegistry } from '../../src/index.js';
import { collect, textTurn, usage } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

function countingRegistry(config: Config, runs: string[]) {
  return new ToolRegistry(config).register(
    defineTool({
      name: 'step',
      description: 'Counts its runs.',
      kind: 'write',
      schema: z.object({ n: z.number() }),
      execute: ({ params }) => {
        runs.push(`step ${params.n}`);
        return `did ${params.n}`;
      },
    }),
  );
}

/** A journal as a crash would leave it: a turn with two calls, only the first answered. */
function interruptedJournal(config: Config) {
  const session = new Session(config);
  session.addUserMessage('do two steps');
  session.startTurn();
  session.trackUsage(usage(5, 2));
  session.addAssistantMessage('', [
    { callId: 'c1', name: 'step', arguments: { n: 1 } },
    { callId: 'c2', name: 'step', arguments: { n: 2 } },
  ]);
  session.addToolResult({ callId: 'c1', content: 'did 1' });
  return session.journal;
}

describe('Agent.resume', () => {
  it('runs only the calls without a recorded result, then asks the model again', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const runs: string[] = [];
    const client = new ScriptedClient([textTurn('both done')]);
    const session = Session.replay(interruptedJournal(config), config, {
      client,
      registry: countingRegistry(config, runs),
    });
    const events = await collect(new Agent(config, { session }).resume());
    expect(runs).toEqual(['step 2']);
    expect(events[0]).toEqual({ type: 'agent_start', data: { input: '', resumed: true } });
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'both done', turnCount: 2 } });
    expect(client.requests[0]?.messages.slice(-2)).toEqual([
      { role: 'tool', callId: 'c1', content: 'did 1' },
      { role: 'tool', callId: 'c2', content: 'did 2' },
    ]);
  });

  it('journals the move into executingTools before a synchronous pending call reports', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const session = Session.replay(interruptedJournal(config), config, {
      client: new ScriptedClient([textTurn('done')]),
      registry: countingRegistry(config, []),
    });
    const agent = new Agent(config, { session });
    const stream: string[] = [];
    agent.stream$.subscribe(({ entry }) => {
      stream.push(entry.type === 'transition' ? `${entry.from}->${entry.to}` : entry.type);
    });
    await collect(agent.resume());
    expect(stream.slice(0, 6)).toEqual([
      'agent_start',
      'awaitingModel->executingTools',
      'tool_started',
      'tool_call_start',
      'tool_result',
      'tool_call_complete',
    ]);
  });

  it('retries the model request after a model_error without repeating recorded work', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const runs: string[] = [];
    const client = new ScriptedClient([
      [
        StreamEvent.toolCallComplete({ callId: 'c1', name: 'step', arguments: { n: 1 } }),
        StreamEvent.messageComplete(),
      ],
      [StreamEvent.textDelta('half'), StreamEvent.error('connection cut')],
      textTurn('recovered'),
    ]);
    const session = new Session(config, { client, registry: countingRegistry(config, runs) });
    const agent = new Agent(config, { session });
    const first = await collect(agent.run('go'));
    expect(first.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'model_error' } });
    const second = await collect(agent.resume());
    expect(second.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'recovered' } });
    expect(runs).toEqual(['step 1']);
    expect(client.requests[2]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('refuses to resume a run that ended with a final answer', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const session = new Session(config, { client: new ScriptedClient([textTurn('done')]) });
    const agent = new Agent(config, { session });
    await collect(agent.run('go'));
    expect(() => agent.resume()).toThrowError(/ended with a final answer/);
  });

  it('a new message after an interrupted run first answers the orphaned calls with errors', async () => {
    const config = new Config({ cwd: tempWorkspace() });
    const runs: string[] = [];
    const client = new ScriptedClient([textTurn('ok')]);
    const session = Session.replay(interruptedJournal(config), config, {
      client,
      registry: countingRegistry(config, runs),
    });
    await collect(new Agent(config, { session }).run('never mind'));
    expect(runs).toEqual([]);
    const sent = client.requests[0]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(sent[3]?.content).toMatch(/^Error: the run was interrupted/);
  });
});
