// docs/mcp.md "Tool list changes": an agent given `toolSources` refreshes its registry before
// each model request. A refresh that fails (a server now lists a tool whose name another tool
// has) is the tool source's failure, not the model's: the run ends with `mcp_error`, naming the
// server and the tool, keeping every entry journaled before it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  HarnessError,
  openStore,
  ScriptedClient,
  Session,
  stableJson,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { assertLoopInvariants } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { closeLater } from './support/sources.js';
import { testServerStdio } from './support/test-server-process.js';

const mine = defineTool({
  name: 'late_tool',
  description: 'Mine.',
  kind: ToolKind.READ,
  schema: z.object({}),
  execute: () => 'mine',
});

describe('a toolSources refresh that fails during a run', () => {
  it('ends the run with mcp_error naming the server and the clashing tool, keeping what was journaled', async () => {
    const source = closeLater(await connectMcp({ ...testServerStdio, name: 'test' }));
    const config = new Config({ maxTurns: 5 });
    const registry = new ToolRegistry(config).register(mine, ...source.tools);
    // add_tool makes the server list late_tool, which the registry already holds (not the server's).
    const client = new ScriptedClient([toolTurn('c1', 'add_tool', {}), textTurn('never asked')]);
    const store = await openStore('memory:');
    const session = new Session(config, { store, id: 'clash' });
    const events = await collect(
      new Agent(config, { client, tools: registry, session, toolSources: [source] }).run('go'),
    );

    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent_error', data: { reason: 'mcp_error' } });
    const message = end?.type === 'agent_error' ? end.data.message : '';
    expect(message).toContain("MCP server 'test'");
    expect(message).toContain("'late_tool'");
    expect(client.calls).toBe(1);
    expect(registry.get('late_tool')).toBe(mine);

    const journal = session.journal;
    expect(journal).toContainEqual({ type: 'tool_result', callId: 'c1', content: 'added late_tool' });
    expect(journal.at(-1)).toMatchObject({ type: 'agent_error', reason: 'mcp_error', message });
    assertLoopInvariants(journal);
    await session.close();
    expect(stableJson((await store.read('clash')).entries)).toBe(stableJson(journal));
    expect(stableJson(Session.replay(journal, config).journal)).toBe(stableJson(journal));

    // The clash resolved (here: the source left out), the stored run resumes where it stopped.
    const loaded = await Session.load(store, 'clash', { config });
    const again = new ScriptedClient([textTurn('done')]);
    const resumed = await collect(new Agent(config, { client: again, tools: registry, session: loaded }).resume());
    expect(resumed.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    expect(again.requests[0]?.messages.at(-1)).toEqual({ role: 'tool', callId: 'c1', content: 'added late_tool' });
    assertLoopInvariants(loaded.journal);
    await loaded.close();
    await store.close();
  }, 30_000);

  it('ends the run with mcp_error for any tool source that throws, with its message', async () => {
    const config = new Config({ maxTurns: 5 });
    const failing = {
      refresh(): never {
        throw new HarnessError('invalid_argument', "source 'flaky' now lists a tool 'late_tool' twice");
      },
    };
    const client = new ScriptedClient([textTurn('never asked')]);
    const session = new Session(config);
    const events = await collect(new Agent(config, { client, session, toolSources: [failing] }).run('go'));
    expect(events.at(-1)).toEqual({
      type: 'agent_error',
      data: {
        reason: 'mcp_error',
        message: "the tool sources could not be refreshed: source 'flaky' now lists a tool 'late_tool' twice",
      },
    });
    expect(client.calls).toBe(0);
    assertLoopInvariants(session.journal);
  });
});
