import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { Config } from '../../src/config/config.js';
import { Session } from '../../src/session/session.js';
import { runScript, type Script, ScriptedClient, scriptedTurns } from '../../src/testing/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/tools/tool.js';
import { drain } from '../support/runs.js';

const look = defineTool({
  name: 'look',
  description: 'look',
  kind: 'read',
  schema: z.object({ x: z.number().optional() }),
  execute: () => 'seen',
});
const invalid: Script = [
  {
    kind: 'tools',
    text: [],
    calls: [{ name: 'look', arguments: { x: 'bad' } }],
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
  },
  { kind: 'answer', text: ['done'], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
];

describe('a run that crashed once a tool had maxInvalidToolCalls invalid calls in a row', () => {
  it('is not resumed into another model request: it stops with invalid_tool_calls', async () => {
    const options = { maxInvalidToolCalls: 1 };
    const whole = await runScript(invalid, { tools: [look], config: options });
    const result = whole.journal.findIndex((entry) => entry.type === 'tool_result');
    expect(whole.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'invalid_tool_calls' });
    // The crash: the journal stops right after the invalid call's result, before budgetCheck.
    const config = new Config(options);
    const session = Session.replay(whole.journal.slice(0, result + 1), config);
    const client = new ScriptedClient(scriptedTurns(invalid.slice(1)));
    const agent = new Agent(config, { session, client, tools: new ToolRegistry(config).register(look) });
    await drain(agent.resume());
    const resumed = session.journal.slice(result + 1);
    expect(client.calls).toBe(0);
    expect(resumed.some((entry) => entry.type === 'turn_start')).toBe(false);
    expect(resumed.at(-1)).toMatchObject({ type: 'agent_error', reason: 'invalid_tool_calls' });
  });

  it('also when the crash came in a resume() of a run that had ended with invalid_tool_calls', async () => {
    const config = new Config({ maxInvalidToolCalls: 1 });
    const twice = [invalid[0], ...invalid] as Script;
    const session = new Session(config);
    const client = new ScriptedClient(scriptedTurns(twice));
    const agent = new Agent(config, { session, client, tools: new ToolRegistry(config).register(look) });
    await drain(agent.run('go'));
    expect(session.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'invalid_tool_calls' });
    // The user resumes the ended run: it may ask once more, and its call is invalid again.
    await drain(agent.resume());
    const result = session.journal.findLastIndex((entry) => entry.type === 'tool_result');
    const crashed = Session.replay(session.journal.slice(0, result + 1), config);
    const after = new ScriptedClient(scriptedTurns(twice.slice(2)));
    const resumed = new Agent(config, {
      session: crashed,
      client: after,
      tools: new ToolRegistry(config).register(look),
    });
    await drain(resumed.resume());
    expect(after.calls).toBe(0);
    expect(crashed.journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'invalid_tool_calls' });
  });
});
