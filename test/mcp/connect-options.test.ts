import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { loadMcpSdk } from '../../src/mcp/load-mcp-sdk.js';

describe('connectMcp options', () => {
  it.each([
    [{}, 'an MCP server needs exactly one of `command` (stdio) or `url` (HTTP)'],
    [{ command: 'x', url: 'http://h/mcp' }, 'an MCP server needs exactly one of `command` (stdio) or `url` (HTTP)'],
    [{ command: ' ' }, 'MCP server command must be a non-empty string, got  '],
    [{ url: 'not a url' }, "MCP server url 'not a url' is not a URL"],
    [{ url: 'ftp://h/mcp' }, "MCP server url 'ftp://h/mcp' must be http: or https:"],
    [{ command: 'x', prefix: 'a b' }, "MCP prefix 'a b' must match /^[A-Za-z0-9_-]{1,40}$/"],
  ])('refuses %j before starting anything', async (options, message) => {
    await expect(connectMcp(options as never)).rejects.toMatchObject({ reason: 'invalid_argument', message });
  });

  it('names the package to install when the SDK is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadMcpSdk(() => Promise.reject(missing))).rejects.toMatchObject({
      reason: 'missing_dependency',
      message:
        "MCP servers need the optional package '@modelcontextprotocol/sdk', which is not installed; run: npm i @modelcontextprotocol/sdk",
    });
    const other = new Error('boom');
    await expect(loadMcpSdk(() => Promise.reject(other))).rejects.toBe(other);
  });
});
