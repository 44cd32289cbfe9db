// SPEC §11: an MCP tool error becomes an `Error: …` observation. A server that lies in its answer
// (a result whose content is not a list; structured content its own outputSchema refuses) is such
// an error: the model reads `Error: …` naming the server and the tool, and the run goes on.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, Config, connectMcp, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { callsTurn } from '../approval/support.js';
import { closeLater } from '../mcp/support/sources.js';
import { textTurn, usage } from '../support/fixtures.js';

const LIAR = fileURLToPath(new URL('./s0913-lying-mcp-server.mjs', import.meta.url));

describe('an MCP server that lies in its results (stdio)', () => {
  it('answers each lying call Error: naming the server and the tool, and the run ends with agent_end', async () => {
    const source = closeLater(await connectMcp({ command: process.execPath, args: [LIAR] }));
    const config = new Config({ maxTurns: 3 });
    const registry = new ToolRegistry(config).register(...source.tools);
    const client = new ScriptedClient([
      callsTurn(['c1', 'bad_shape'], ['c2', 'bad_structured'], ['c3', 'ok']),
      textTurn('done', usage(5, 2)),
    ]);
    const session = new Session(config, { client, registry });
    const events = [];
    for await (const event of new Agent(config, { session }).run('go')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    const [shape, structured, ok] = client.requests[1]?.messages.slice(-3) ?? [];
    expect(shape).toMatchObject({ role: 'tool', callId: 'c1' });
    expect(shape?.content).toMatch(/^Error: MCP server 'liar' answered 'bad_shape' .*content/s);
    expect(structured?.content).toMatch(/^Error: MCP server 'liar' answered 'bad_structured' .*output schema/s);
    expect(ok).toEqual({ role: 'tool', callId: 'c3', content: 'ok ok' });
  }, 30_000);
});
