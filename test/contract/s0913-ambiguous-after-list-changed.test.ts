// docs/approval.md "A tool named like a kind": in a flat policy `read: 'allow'` would mean both
// the kind and a tool named `read`, so while such a tool is registered the rule is refused and the
// tool never runs under it. A server that adds a tool `read` (not read-only: kind network) during
// a run, applied between turns (`toolSources`), must not have it allowed by the kind rule.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, Config, connectMcp, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { closeLater } from '../mcp/support/sources.js';
import { textTurn, toolTurn } from '../support/fixtures.js';

const SERVER = fileURLToPath(new URL('./s0913-adds-read-server.mjs', import.meta.url));

describe('a tool named like a kind that a server adds mid-run', () => {
  it('is never run under the flat kind rule: the call is refused, naming the ambiguity', async () => {
    const source = closeLater(await connectMcp({ command: process.execPath, args: [SERVER] }));
    const config = new Config({ maxTurns: 5, permissions: { read: 'allow', add_read: 'allow', network: 'ask' } });
    const registry = new ToolRegistry(config).register(...source.tools);
    const client = new ScriptedClient([toolTurn('c1', 'add_read', {}), toolTurn('c2', 'read', {}), textTurn('done')]);
    const session = new Session(config, { client, registry });
    const agent = new Agent(config, { session, toolSources: [source] });
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) {
      events.push(event);
      if (event.type === 'tool_approval_request') agent.deny(event.data.callId);
    }
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(client.requests[1]?.tools.map((tool) => tool.name)).toContain('read');
    const answer = client.requests[2]?.messages.at(-1);
    expect(answer).toMatchObject({ role: 'tool', callId: 'c2' });
    expect(answer?.content).toMatch(/^Error: denied: permissions\.read is ambiguous/);
  }, 30_000);
});

describe('a server whose announced tool list never comes', () => {
  it('does not hold the next request past the run’s wall clock: the run ends with time_budget', async () => {
    const source = closeLater(await connectMcp({ command: process.execPath, args: [SERVER, '--hang-relist'] }));
    const config = new Config({ maxTurns: 5, budget: { maxWallClockMs: 1_000 } });
    const registry = new ToolRegistry(config).register(...source.tools);
    const client = new ScriptedClient([toolTurn('c1', 'add_read', {}), textTurn('done')]);
    const session = new Session(config, { client, registry });
    const events: AgentEvent[] = [];
    for await (const event of new Agent(config, { session, toolSources: [source] }).run('go')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'agent_error', data: { reason: 'time_budget' } });
    expect(client.calls).toBe(1);
  }, 20_000);
});
