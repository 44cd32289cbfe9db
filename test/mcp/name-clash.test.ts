// docs/mcp.md "Names": characters model APIs refuse become `_`, so two of a server's tools can
// become one harness name (`get.item` and `get_item`). The model could not tell them apart: they
// are refused with reason `mcp_error`, naming the server, both tools and the name they share.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agent, Config, HarnessError, ScriptedClient, Session, ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { findNameClash, type NameClash, nameClashError } from '../../src/mcp/name-clash.js';
import { assertLoopInvariants } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';
import { closeLater } from './support/sources.js';
import { goneWithin, pidsRunning } from './support/test-server-process.js';

const SERVER = fileURLToPath(new URL('./support/clashing-server.mjs', import.meta.url));
const clashing = { command: process.execPath, args: [SERVER] };
const later = { command: process.execPath, args: [SERVER, '--later'] };

async function refusal(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!HarnessError.isInstance(error)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

describe('two MCP tools that become one harness name', () => {
  it('are refused at connect with mcp_error naming the server, both tools and the shared name', async () => {
    const error = await refusal(connectMcp({ ...clashing, name: 'shop' }));
    expect(error.reason).toBe('mcp_error');
    expect(error.message).toBe(
      "MCP server 'shop' lists two tools that both become 'get_item' (a tool name holds only letters, digits, _ and -, at most 64 characters): 'get.item' and 'get_item'",
    );
    // Nothing is left running.
    for (const pid of pidsRunning([process.execPath, SERVER])) expect(await goneWithin(pid)).toBe(true);
  }, 30_000);

  it('name the prefixed name when a prefix is given, and the name the server reports when none is', async () => {
    const error = await refusal(connectMcp({ ...clashing, prefix: 'p' }));
    expect(error.reason).toBe('mcp_error');
    expect(error.message).toContain("MCP server 'shop' lists two tools that both become 'p_get_item'");
    expect(error.message).toContain("'get.item' and 'get_item'");
  }, 30_000);

  it('listed later (list_changed): refresh() refuses them the same way and changes nothing', async () => {
    const source = closeLater(await connectMcp({ ...later, name: 'shop' }));
    const registry = new ToolRegistry().register(...source.tools);
    const names = registry.names();
    expect(await registry.invoke('add_clash', {})).toEqual({ success: true, output: 'added the clash' });
    await source.listed();
    let thrown: unknown;
    try {
      source.refresh(registry);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      reason: 'mcp_error',
      message: expect.stringContaining(
        "MCP server 'shop' lists two tools that both become 'get_item' (a tool name holds only letters, digits, _ and -, at most 64 characters): 'get.item' and 'get_item'",
      ),
    });
    expect(registry.names()).toEqual(names);
  }, 30_000);

  it('listed during a run: the run ends with mcp_error before the next request, naming them', async () => {
    const source = closeLater(await connectMcp({ ...later, name: 'shop' }));
    const config = new Config({ maxTurns: 5 });
    const registry = new ToolRegistry(config).register(...source.tools);
    const client = new ScriptedClient([toolTurn('c1', 'add_clash', {}), textTurn('never asked')]);
    const session = new Session(config);
    const events = await collect(
      new Agent(config, { client, tools: registry, session, toolSources: [source] }).run('go'),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'agent_error',
      data: { reason: 'mcp_error', message: expect.stringContaining("'get.item' and 'get_item'") },
    });
    expect(client.calls).toBe(1);
    assertLoopInvariants(session.journal);
  }, 30_000);
});

describe('findNameClash / nameClashError', () => {
  const info = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('finds names that become one only when cut to 64 characters, and none among distinct names', () => {
    const long = 'a'.repeat(64);
    expect(findNameClash([info(`${long}x`), info('b'), info(`${long}y`)], undefined)).toEqual({
      name: long,
      first: `${long}x`,
      second: `${long}y`,
    });
    expect(findNameClash([info('get.item'), info('get-item'), info('getitem')], undefined)).toBeUndefined();
  });

  it('says a name listed twice once, and shows control characters in the server’s names as markers', () => {
    expect(nameClashError('s', { name: 'x', first: 'x', second: 'x' })).toMatchObject({
      reason: 'mcp_error',
      message: "MCP server 's' lists the tool 'x' twice",
    });
    const clash = findNameClash([info('get\u202eitem'), info('get_item')], undefined);
    expect(clash?.name).toBe('get_item');
    expect(nameClashError('s', clash as NameClash).message).toContain("'get⟨U+202E⟩item' and 'get_item'");
  });

  it('cleans the server’s own name too (it may be the name the server reports) of control characters', () => {
    const clash = { name: 'get_item', first: 'get.item', second: 'get_item' };
    const { message } = nameClashError('shop\u001b]0;owned\u0007', clash);
    // The escape sequence (a terminal title) is dropped, as in the server's other text.
    expect(message).toContain("MCP server 'shop' lists two tools");
    expect(message.includes('\u001b') || message.includes('\u0007')).toBe(false);
  });
});
