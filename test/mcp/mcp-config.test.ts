import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpConfig, readMcpConfig } from '../../src/mcp/mcp-config.js';
import { tempWorkspace } from '../support/workspace.js';

describe('MCP configuration files ({"mcpServers": …})', () => {
  it('turns each entry into server options named by its key', () => {
    const servers = parseMcpConfig({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { DEBUG: '1' }, prefix: 'fs' },
        remote: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer x' } },
        local: { type: 'stdio', command: 'uvx', cwd: '/tmp' },
      },
    });
    expect(servers).toEqual([
      { name: 'files', command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { DEBUG: '1' }, prefix: 'fs' },
      { name: 'remote', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer x' } },
      { name: 'local', command: 'uvx', cwd: '/tmp' },
    ]);
  });

  it('refuses an entry it cannot use, naming it and the field', () => {
    expect(() => parseMcpConfig({ servers: {} }, 'mcp.json')).toThrowError(
      expect.objectContaining({ reason: 'invalid_config', message: expect.stringMatching(/^mcp\.json: mcpServers: /) }),
    );
    expect(() =>
      parseMcpConfig({ mcpServers: { bad: { command: 'x', args: 'not a list' } } }, 'mcp.json'),
    ).toThrowError(/^mcp\.json: mcpServers\.bad/);
  });

  it('reads a file, and names the file that is missing or not JSON', async () => {
    const dir = tempWorkspace();
    const good = join(dir, 'mcp.json');
    writeFileSync(good, JSON.stringify({ mcpServers: { a: { url: 'http://h/mcp' } } }));
    expect(await readMcpConfig(good)).toEqual([{ name: 'a', url: 'http://h/mcp' }]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ nope');
    await expect(readMcpConfig(bad)).rejects.toThrowError(`MCP config ${bad} is not valid JSON`);
    await expect(readMcpConfig(join(dir, 'missing.json'))).rejects.toMatchObject({
      reason: 'invalid_config',
      message: expect.stringContaining(`cannot read MCP config ${join(dir, 'missing.json')}: ENOENT`),
    });
  });
});
