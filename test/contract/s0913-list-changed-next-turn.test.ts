// docs/mcp.md "Tool list changes": a server's `notifications/tools/list_changed` is applied
// between turns; an agent given the source (`toolSources`, as the CLI's `run --mcp` does)
// refreshes its registry before each model request. A server that changes its list during a call
// and says so before answering it must find the new tool offered on the very next request.
import { describe, expect, it } from 'vitest';
import { Agent, Config, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { closeLater } from '../mcp/support/sources.js';
import { testServerStdio } from '../mcp/support/test-server-process.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';

describe('listChanged between turns (stdio)', () => {
  it('offers a tool the server announced during the last call on the next request, and runs it', async () => {
    const source = closeLater(await connectMcp({ ...testServerStdio, name: 'test' }));
    const config = new Config({ maxTurns: 5 });
    const registry = new ToolRegistry(config).register(...source.tools);
    // add_tool makes the server list late_tool and send list_changed before its result.
    const client = new ScriptedClient([
      toolTurn('c1', 'add_tool', {}),
      toolTurn('c2', 'late_tool', {}),
      textTurn('done'),
    ]);
    const session = new Session(config, { client, registry });
    const events = await collect(new Agent(config, { session, toolSources: [source] }).run('go'));
    expect(events.at(-1)?.type).toBe('agent_end');
    const offered = client.requests.map((request) => request.tools.some((tool) => tool.name === 'late_tool'));
    expect(offered).toEqual([false, true, true]);
    expect(client.requests[2]?.messages.at(-1)).toEqual({ role: 'tool', callId: 'c2', content: 'late tool ran' });
  }, 30_000);
});
