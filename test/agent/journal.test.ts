import { describe, expect, it } from 'vitest';
import { ScriptedClient, Session, stableJson } from '../../src/index.js';
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
      'executingTools->observing',
      'tool_result',
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

  it('refuses a second run while one is in progress', async () => {
    const client = new ScriptedClient([textTurn('one')]);
    const { agent } = makeAgent(client, [], { cwd: tempWorkspace() });
    const first = agent.run('a');
    await first.next();
    await expect(agent.run('b').next()).rejects.toMatchObject({ reason: 'already_running' });
    await collect(first);
  });
});
