import { describe, expect, it } from 'vitest';
import { Agent, Config, type Message, ScriptedClient, Session, StreamEvent, stableJson } from '../../src/index.js';
import { CheckpointTool, collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';

describe('Agent journal', () => {
  it('records session facts and machine transitions in order', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('complete')]);
    const { agent, session } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    await collect(agent.run('go'));
    const summary = session.journal.map((entry) =>
      entry.type === 'transition' ? `${entry.from}->${entry.to}` : entry.type,
    );
    expect(summary).toEqual([
      'user_message',
      'turn_start',
      'usage',
      'assistant_message',
      'awaitingModel->executingTools',
      'tool_started',
      'tool_result',
      'executingTools->observing',
      'observing->budgetCheck',
      'budgetCheck->awaitingModel',
      'turn_start',
      'usage',
      'awaitingModel->done',
      'agent_end',
    ]);
    const toolDone = session.journal.find((entry) => entry.type === 'transition' && entry.to === 'observing');
    expect(toolDone).toEqual({ type: 'transition', from: 'executingTools', to: 'observing', event: 'TOOL_SETTLED' });
  });

  it('replays an agent run into an equal session with a byte-identical journal', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('complete')]);
    const { agent, session, config } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    await collect(agent.run('go'));
    const replayed = Session.replay(structuredClone(session.journal), config);
    expect(replayed.messages).toEqual(session.messages);
    expect(replayed.totalUsage).toEqual(session.totalUsage);
    expect(replayed.turnCount).toBe(session.turnCount);
    expect(stableJson(replayed.journal)).toBe(stableJson(session.journal));
  });

  it('carries the final answer into the context when the conversation continues', async () => {
    const client = new ScriptedClient([textTurn('Paris'), textTurn('About 2 million')]);
    const { agent, session } = makeAgent(client, [], { cwd: tempWorkspace(), systemPrompt: 'Be brief.' });
    await collect(agent.run('Capital of France?'));
    expect(session.messages.at(-1)).toEqual({ role: 'user', content: 'Capital of France?' });
    expect(session.pendingAnswer).toBe('Paris');
    await collect(agent.run('Population?'));
    expect(client.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris' },
      { role: 'user', content: 'Population?' },
    ]);
    expect(Session.replay(session.journal, session.config).messages).toEqual(session.messages);
  });

  it('gives each model request its own array: a client that changes it changes nothing in the session', async () => {
    const seen: number[] = [];
    const client = {
      async *chatCompletion(messages: Message[]) {
        seen.push(messages.length);
        messages.push({ role: 'system', content: 'a client note' }); // say, a client adding its own prompt
        messages.length = 0;
        yield StreamEvent.textDelta('fine');
        yield StreamEvent.messageComplete();
      },
    };
    const config = new Config({ cwd: tempWorkspace() });
    const session = new Session(config, { client });
    const events = await collect(new Agent(config, { session }).run('go'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'fine' } });
    expect(seen).toEqual([1]);
    expect(session.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(stableJson(Session.replay(session.journal, config).messages)).toBe(stableJson(session.messages));
  });

  it('refuses a second run while one is in progress', async () => {
    const client = new ScriptedClient([textTurn('one')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const first = agent.run('a');
    await first.next();
    await expect(agent.run('b').next()).rejects.toMatchObject({ reason: 'already_running' });
    await collect(first);
  });

  it('refuses a second agent running in the same session until the first run ends', async () => {
    const client = new ScriptedClient([textTurn('one'), textTurn('two')]);
    const { agent, session, config } = makeAgent(client, [], { cwd: tempWorkspace() });
    const other = new Agent(config, { session });
    const first = agent.run('a');
    await expect(other.run('b').next()).rejects.toMatchObject({
      reason: 'already_running',
      message: 'another agent is running in this session; await its run first',
    });
    await collect(first);
    expect((await collect(other.run('b'))).at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'two' } });
  });
});

describe('Agent run lifecycle', () => {
  it('starts at run(): abort() before the first event is read ends the run as aborted', async () => {
    const client = new ScriptedClient([toolTurn('c1', 'checkpoint', { step: 1 }), textTurn('complete')]);
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    const run = agent.run('go');
    agent.abort('changed my mind');
    const events = await collect(run);
    expect(events.at(-1)).toEqual({ type: 'agent_error', data: { reason: 'aborted', message: 'changed my mind' } });
  });

  it('finishes and frees the agent even when nobody reads the events', async () => {
    const client = new ScriptedClient([textTurn('one'), textTurn('two')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const done = new Promise<void>((resolve) => {
      agent.events.subscribe((event) => {
        if (event.type === 'agent_end') resolve();
      });
    });
    void agent.run('unread');
    await done;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const events = await collect(agent.run('read'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'two' } });
  });

  it('hands each request its own snapshot of the messages', async () => {
    const kept: (readonly unknown[])[] = [];
    const client = {
      async *chatCompletion(messages: readonly unknown[]) {
        kept.push(messages);
        yield* kept.length === 1 ? toolTurn('c1', 'checkpoint', { step: 1 }) : textTurn('done');
      },
    };
    const { agent } = makeAgent(client, [() => new CheckpointTool()], { cwd: tempWorkspace() });
    await collect(agent.run('go'));
    expect(kept.map((messages) => messages.length)).toEqual([1, 3]);
  });
});
