import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolKind, ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import type { AnyTool } from '../../src/tools/index.js';
import { closeLater } from './support/sources.js';
import { type HttpTestServer, startHttpTestServer } from './support/test-server-process.js';

let server: HttpTestServer;
// A child process running tsx: slow to start on a busy machine, hence the longer hook limit.
beforeAll(async () => {
  server = await startHttpTestServer();
}, 30_000);
afterAll(() => server.stop());

/** Resolves with the next list the source announces. */
function nextChange(source: { onToolsChanged(listener: (tools: readonly AnyTool[]) => void): () => void }) {
  return new Promise<readonly AnyTool[]>((resolve) => {
    const stop = source.onToolsChanged((tools) => {
      stop();
      resolve(tools);
    });
  });
}

describe('tools/list_changed', () => {
  it('updates source.tools and tells listeners; the registry changes only on refresh()', async () => {
    const source = closeLater(await connectMcp({ url: server.url, name: 'test' }));
    const registry = new ToolRegistry().register(...source.tools);
    const before = registry.definitions();
    const changed = nextChange(source);
    expect(await registry.invoke('add_tool', {})).toEqual({ success: true, output: 'added late_tool' });
    const tools = await changed;
    expect(tools.map((tool) => tool.name)).toContain('late_tool');
    expect(source.tools).toBe(tools);
    // Mid-turn: the registry still offers what it offered.
    expect(registry.has('late_tool')).toBe(false);
    expect(registry.definitions()).toBe(before);

    expect(source.refresh(registry)).toEqual({ added: ['late_tool'], removed: [] });
    expect(registry.definitions().map((tool) => tool.name)).toContain('late_tool');
    expect(await registry.invoke('late_tool', {})).toEqual({ success: true, output: 'late tool ran' });
    // Nothing new: a second refresh changes nothing and keeps the tools as they are.
    const after = registry.definitions();
    expect(source.refresh(registry)).toEqual({ added: [], removed: [] });
    expect(registry.definitions()).toBe(after);
  });

  it('refuses, changing nothing, a new tool whose name another tool already has', async () => {
    const source = closeLater(await connectMcp({ url: server.url, name: 'test' }));
    const other = defineTool({
      name: 'late_tool',
      description: 'Mine.',
      kind: ToolKind.READ,
      schema: z.object({}),
      execute: () => 'mine',
    });
    const registry = new ToolRegistry().register(other, ...source.tools.filter((tool) => tool.name !== 'late_tool'));
    const names = registry.names();
    if (!source.tools.some((tool) => tool.name === 'late_tool')) {
      const changed = nextChange(source);
      await registry.invoke('add_tool', {});
      await changed;
    }
    expect(() => source.refresh(registry)).toThrowError(
      "MCP server 'test' now lists a tool 'late_tool', but a tool of that name is already registered; use a prefix",
    );
    expect(registry.names()).toEqual(names);
    expect(registry.get('late_tool')).toBe(other);
  });

  it('after a restart with a shorter list, refresh() removes the tools the server no longer lists', async () => {
    const own = await startHttpTestServer();
    try {
      const source = closeLater(await connectMcp({ url: own.url, name: 'test', reconnect: { backoffMs: 20 } }));
      const registry = new ToolRegistry().register(...source.tools);
      const added = nextChange(source);
      await registry.invoke('add_tool', {});
      await added;
      source.refresh(registry);
      expect(registry.has('late_tool')).toBe(true);

      await registry.invoke('crash', {});
      await own.exited;
      const restarted = await startHttpTestServer(own.port);
      try {
        const relisted = nextChange(source);
        expect(await registry.invoke('echo', { text: 'x' })).toEqual({ success: true, output: 'x' });
        expect((await relisted).map((tool) => tool.name)).not.toContain('late_tool');
        expect(source.refresh(registry)).toEqual({ added: [], removed: ['late_tool'] });
        expect(registry.has('late_tool')).toBe(false);
      } finally {
        await restarted.stop();
      }
    } finally {
      await own.stop();
    }
  });
});
