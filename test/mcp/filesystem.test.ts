import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError, ReadFileTool, ScriptedClient, ToolRegistry } from '../../src/index.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { tempWorkspace } from '../support/workspace.js';
import { closeLater } from './support/sources.js';
import { FILESYSTEM_SERVER, isAlive, pidsRunning } from './support/test-server-process.js';

function folder(): string {
  const dir = tempWorkspace();
  writeFileSync(join(dir, 'notes.md'), '# Notes\nBuy milk.\n');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.ts'), 'export const answer = 42;\n');
  return dir;
}

const filesystem = (dir: string, extra: { prefix?: string; name?: string } = {}) =>
  connectMcp({ command: process.execPath, args: [FILESYSTEM_SERVER, dir], ...extra });

describe('connectMcp over stdio (the filesystem server)', () => {
  it('lists the tools with their names, kinds from readOnlyHint, the server name as source', async () => {
    const source = closeLater(await filesystem(folder()));
    expect(source.name).toBe('secure-filesystem-server');
    const byName = new Map(source.tools.map((tool) => [tool.name, tool]));
    expect(byName.get('read_text_file')).toMatchObject({ kind: 'read', source: 'mcp:secure-filesystem-server' });
    expect(byName.get('list_directory')?.kind).toBe('read');
    expect(byName.get('write_file')?.kind).toBe('network');
    expect(byName.get('move_file')?.kind).toBe('network');
  });

  it('sends the server JSON Schema to the model unchanged', async () => {
    const source = closeLater(await filesystem(folder()));
    const registry = new ToolRegistry().register(...source.tools);
    const listed = await source.tools.find((tool) => tool.name === 'read_text_file');
    const definition = registry.definitions().find((tool) => tool.name === 'read_text_file');
    expect(definition?.parameters).toBe(listed?.parameters);
    expect(definition?.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(definition?.description).toMatch(/^Read the complete contents of a file/);
  });

  it('reads and lists files through the server', async () => {
    const dir = folder();
    const registry = new ToolRegistry().register(...closeLater(await filesystem(dir)).tools);
    expect(await registry.invoke('read_text_file', { path: join(dir, 'notes.md') })).toEqual({
      success: true,
      output: '# Notes\nBuy milk.\n',
    });
    const listing = await registry.invoke('list_directory', { path: dir });
    expect(listing.output?.split('\n').sort()).toEqual(['[DIR] src', '[FILE] notes.md']);
  });

  it('turns a refusal of the server into an error result, and checks required arguments', async () => {
    const dir = folder();
    const registry = new ToolRegistry().register(...closeLater(await filesystem(dir)).tools);
    const outside = await registry.invoke('read_text_file', { path: '/etc/hostname' });
    expect(outside.success).toBe(false);
    expect(outside.error).toMatch(/Access denied - path outside allowed directories/);
    expect(await registry.invoke('read_text_file', {})).toEqual({
      success: false,
      error: 'Invalid parameters: path: required',
    });
  });

  it('refuses a name that clashes with a registered tool, and a prefix avoids the clash', async () => {
    const dir = folder();
    const plain = closeLater(await filesystem(dir));
    const registry = new ToolRegistry({ cwd: dir } as never).register(new ReadFileTool());
    expect(() => registry.register(...plain.tools)).toThrowError(
      expect.objectContaining({
        reason: 'invalid_argument',
        message: "a tool named 'read_file' is already registered",
      }),
    );
    expect(registry.names()).toEqual(['read_file']);
    const prefixed = closeLater(await filesystem(dir, { prefix: 'fs', name: 'files' }));
    registry.register(...prefixed.tools);
    expect(registry.names()).toContain('fs_read_text_file');
    expect(registry.get('fs_read_text_file')?.source).toBe('mcp:files');
    const read = await registry.invoke('fs_read_text_file', { path: join(dir, 'src', 'app.ts') });
    expect(read.output).toBe('export const answer = 42;\n');
  });

  it('gives an agent on a scripted model the real file contents in its tool messages', async () => {
    const dir = folder();
    const source = closeLater(await filesystem(dir));
    const client = new ScriptedClient([
      [
        ...toolTurn('c1', 'read_text_file', { path: join(dir, 'notes.md') }).slice(0, 1),
        ...toolTurn('c2', 'list_directory', { path: join(dir, 'src') }),
      ],
      textTurn('You need milk.'),
    ]);
    const { agent, session } = makeAgent(
      client,
      source.tools.map((tool) => () => tool),
      { cwd: dir, maxTurns: 4 },
    );
    const events = await collect(agent.run('What do my notes say?'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'You need milk.' } });
    const tools = session.messages.filter((message) => message.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', callId: 'c1', content: '# Notes\nBuy milk.\n' },
      { role: 'tool', callId: 'c2', content: '[FILE] app.ts' },
    ]);
    expect(client.requests[0]?.tools.map((tool) => tool.name)).toContain('read_text_file');
    // The journal names the server each call went to, so a saved run's timeline still shows it.
    const started = session.journal.filter((entry) => entry.type === 'tool_started');
    expect(started).toEqual([
      { type: 'tool_started', callId: 'c1', source: 'mcp:secure-filesystem-server' },
      { type: 'tool_started', callId: 'c2', source: 'mcp:secure-filesystem-server' },
    ]);
    const steps = InspectorFeed.fromJournal(session.journal, { title: 'mcp run' }).snapshot().steps;
    expect(steps.filter((step) => step.kind === 'tool_call').map((step) => step.tool?.source)).toEqual([
      'mcp:secure-filesystem-server',
      'mcp:secure-filesystem-server',
    ]);
    const pid = source.pid as number;
    await source.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('stops the server on close(): its process is gone, and a later call is an error result', async () => {
    const source = await filesystem(folder());
    const registry = new ToolRegistry().register(...source.tools);
    const pid = source.pid as number;
    expect(isAlive(pid)).toBe(true);
    await source.close();
    expect(isAlive(pid)).toBe(false);
    expect(source.pid).toBeUndefined();
    expect(await registry.invoke('list_allowed_directories', {})).toEqual({
      success: false,
      error: "MCP server 'secure-filesystem-server' was closed",
    });
  });
});

describe('connectMcp when the server cannot start', () => {
  it('names the command that does not exist', async () => {
    const failure = connectMcp({ command: 'no-such-mcp-server-command', args: ['--x'] });
    await expect(failure).rejects.toThrowError(HarnessError);
    await expect(failure).rejects.toMatchObject({
      reason: 'mcp_error',
      message:
        "MCP server 'no-such-mcp-server-command --x' failed to start: command 'no-such-mcp-server-command' not found (ENOENT)",
    });
  });

  it('gives the exit code and the end of the stderr of a server that exits at once', async () => {
    const failure = connectMcp({ name: 'files', command: process.execPath, args: [FILESYSTEM_SERVER, '/no/such/dir'] });
    await expect(failure).rejects.toMatchObject({
      reason: 'mcp_error',
      message: expect.stringMatching(
        /^MCP server 'files' failed to start: the server exited with code 1 during start-up; its stderr: .*Error: None of the specified directories are accessible$/,
      ),
    });
  });

  it('gives up on a server that never answers the handshake, and stops it', async () => {
    const args = ['29.5173'];
    const failure = connectMcp({ name: 'mute', command: 'sleep', args, connectTimeoutMs: 200 });
    await expect(failure).rejects.toMatchObject({
      reason: 'mcp_error',
      message: "MCP server 'mute' failed to start: no answer to the MCP handshake within 200 ms",
    });
    expect(pidsRunning(['sleep', ...args])).toEqual([]);
  });
});
