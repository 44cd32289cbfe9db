import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkPermissions, permissionFor } from '../../src/config/permission-policy.js';
import { Agent, Config, defineTool, HarnessError, handoffTool, ScriptedClient, ToolRegistry } from '../../src/index.js';
import { collect } from '../support/fixtures.js';
import { approvalAgent, callsTurn, textTurn } from './support.js';

/** An MCP-like tool named `read` that reaches the network. */
const networkRead = () =>
  defineTool({
    name: 'read',
    description: 'reads a URL',
    kind: 'network',
    schema: z.object({}),
    execute: () => 'fetched',
  });

async function startError(agent: Agent): Promise<unknown> {
  try {
    await collect(agent.run('go'));
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a misspelt rule is refused when the run starts, with "did you mean"', () => {
  it('a key that is neither a kind nor a registered tool: invalid_config naming it', async () => {
    const { agent, runs } = approvalAgent([callsTurn(['c1', 'run']), textTurn('ok')], {
      permissions: { shel: 'deny' },
    });
    const error = await startError(agent);
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ reason: 'invalid_config' });
    expect((error as Error).message).toMatch(/permissions\.shel names neither a tool kind .* did you mean 'shell'\?/);
    expect(runs).toEqual([]);
  });

  it('a tool name one edit away from a registered tool is suggested; tool: keys too', async () => {
    const misspelt = approvalAgent([textTurn('ok')], { permissions: { chnge: 'deny' } });
    expect(((await startError(misspelt.agent)) as Error).message).toMatch(/did you mean 'change'\?/);
    const prefixed = approvalAgent([textTurn('ok')], { permissions: { 'tool:chang': 'deny' } });
    expect(((await startError(prefixed.agent)) as Error).message).toMatch(/did you mean 'tool:change'\?/);
  });

  it('a rule for a tool of an agent a handoff reaches is known', async () => {
    const config = new Config({ permissions: { refund: 'ask' } });
    const billing = new ToolRegistry().register(
      defineTool({ name: 'refund', description: 'r', kind: 'write', schema: z.object({}), execute: () => 'ok' }),
    );
    const registry = new ToolRegistry().register(
      handoffTool({ agent: { name: 'billing', instructions: 'Bill.', registry: billing } }),
    );
    const agent = new Agent(config, { client: new ScriptedClient([textTurn('ok')]), registry });
    const events = await collect(agent.run('go'));
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});

describe('names and kinds apart', () => {
  it('a kind rule never reaches a tool named like the kind: { kinds, tools }', () => {
    const policy = checkPermissions({ kinds: { read: 'allow', network: 'ask' }, tools: { read: 'deny' } });
    expect(policy).toEqual({ 'kind:read': 'allow', 'kind:network': 'ask', 'tool:read': 'deny' });
    expect(permissionFor(policy, 'read', 'network')).toBe('deny');
    expect(permissionFor(policy, 'read_file', 'read')).toBe('allow');
    const kindsOnly = checkPermissions({ kinds: { read: 'allow', network: 'ask' } });
    expect(permissionFor(kindsOnly, 'read', 'network')).toBe('ask');
  });

  it('refuses a kind that is not one, and a scoped policy with other keys', () => {
    expect(() => checkPermissions({ kinds: { shel: 'deny' } })).toThrow(/not a tool kind .*did you mean 'shell'/);
    expect(() => checkPermissions({ kinds: {}, extra: {} })).toThrow(HarnessError);
    expect(() => checkPermissions({ 'kind:wrte': 'deny' })).toThrow(/did you mean 'write'/);
  });

  it('a flat rule naming both a kind and a tool of another kind is refused when the run starts', async () => {
    const config = new Config({ permissions: { read: 'allow', network: 'ask' } });
    const registry = new ToolRegistry().register(networkRead());
    const agent = new Agent(config, { client: new ScriptedClient([textTurn('ok')]), registry });
    const error = await startError(agent);
    expect(error).toMatchObject({ reason: 'invalid_config' });
    expect((error as Error).message).toMatch(/permissions\.read is ambiguous: .*kind 'network'.*\{ kinds: \{ read/);
  });

  it('disambiguated, the kind rule leaves the tool to its own kind: it asks', async () => {
    const config = new Config({ permissions: { kinds: { read: 'allow', network: 'ask' } } });
    const registry = new ToolRegistry().register(networkRead());
    const agent = new Agent(config, {
      client: new ScriptedClient([callsTurn(['c1', 'read']), textTurn('ok')]),
      registry,
    });
    const asked: string[] = [];
    for await (const event of agent.run('go')) {
      if (event.type !== 'tool_approval_request') continue;
      asked.push(event.data.name);
      agent.deny(event.data.callId);
    }
    expect(asked).toEqual(['read']);
  });
});
