import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { nodeArgs } from '../support/script-bundles.js';
import { closeLater } from './support/sources.js';
import { goneWithin, isAlive, testServerStdio } from './support/test-server-process.js';

const connectStdio = () => connectMcp({ ...testServerStdio, name: 'stdio', reconnect: { backoffMs: 20 } });

describe('stdio servers: restarts and shutdown', () => {
  it('a server that dies mid-call is an error result with its exit code; the next call starts it again', async () => {
    const source = closeLater(await connectStdio());
    const registry = new ToolRegistry().register(...source.tools);
    const first = source.pid as number;
    expect(await registry.invoke('crash', {})).toEqual({
      success: false,
      error: "MCP server 'stdio' was lost during 'crash': the server exited with code 3; the next call reconnects",
    });
    expect(isAlive(first)).toBe(false);
    expect(await registry.invoke('echo', { text: 'again' })).toEqual({ success: true, output: 'again' });
    expect(source.pid).not.toBe(first);
    expect((await registry.invoke('stats', {})).output).toBe(`cancelled=0 pid=${source.pid}`);
  });

  it('a hung call is cancelled by its signal and the server hears of it', async () => {
    const source = closeLater(await connectStdio());
    const registry = new ToolRegistry().register(...source.tools);
    const controller = new AbortController();
    const pending = registry.invoke('hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort('stop'), 100);
    expect(await pending).toEqual({ success: false, error: "Tool 'hang' was aborted: stop" });
    let stats = '';
    for (let i = 0; i < 100 && !stats.startsWith('cancelled=1'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stats = (await registry.invoke('stats', {})).output ?? '';
    }
    expect(stats).toMatch(/^cancelled=1 /);
  });

  it('close() stops the server and what it started (its process group)', async () => {
    const source = await connectStdio();
    const registry = new ToolRegistry().register(...source.tools);
    const server = source.pid as number;
    const grandchild = Number((await registry.invoke('spawn_child', {})).output);
    expect(isAlive(grandchild)).toBe(true);
    await source.close();
    expect(isAlive(server)).toBe(false);
    expect(await goneWithin(grandchild)).toBe(true);
  });

  it('a process that never closes its source still exits, and its server goes with it', async () => {
    const script = fileURLToPath(new URL('./support/forgetful-client.ts', import.meta.url));
    const child = spawn(process.execPath, nodeArgs(script), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const [server, grandchild] = out.trim().split(' ').map(Number);
    expect(server).toBeGreaterThan(0);
    expect(await goneWithin(server as number)).toBe(true);
    expect(await goneWithin(grandchild as number)).toBe(true);
  });
});
