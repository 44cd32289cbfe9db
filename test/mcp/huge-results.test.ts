import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { LineReader } from '../../src/mcp/line-reader.js';
import { closeLater, stopLater } from './support/sources.js';
import { hostileServerStdio, startHttpTestServer } from './support/test-server-process.js';

describe('an MCP tool result over 10 MB', () => {
  it('over stdio is an error result naming the limit, and the same server answers the next call', async () => {
    const source = closeLater(await connectMcp({ ...hostileServerStdio, name: 'hostile' }));
    const registry = new ToolRegistry().register(...source.tools);
    const pid = source.pid;
    const huge = await registry.invoke('huge', { megabytes: 11 });
    expect(huge.success).toBe(false);
    expect(huge.error).toMatch(/sent a message of 11,534,\d{3} bytes, over the limit of 10,485,760; it was dropped/);
    expect(huge.error?.length).toBeLessThan(500);
    expect(await registry.invoke('echo', { text: 'still here' })).toMatchObject({
      success: true,
      output: 'still here',
    });
    expect(source.pid).toBe(pid);
  }, 60_000);

  it('over streamable HTTP reaches the model capped, and the server answers the next call', async () => {
    const server = stopLater(await startHttpTestServer(0, ['--hostile']));
    const source = closeLater(await connectMcp({ url: server.url, name: 'hostile' }));
    const registry = new ToolRegistry().register(...source.tools);
    const huge = await registry.invoke('huge', { megabytes: 11 });
    expect(huge.success).toBe(true);
    expect(huge.output?.length).toBeLessThan(110_000);
    expect(await registry.invoke('echo', { text: 'still here' })).toMatchObject({
      success: true,
      output: 'still here',
    });
  }, 60_000);
});

describe('LineReader', () => {
  it('drops a line past its limit as it arrives, keeping both ends, and reads the next line whole', () => {
    const reader = new LineReader(10);
    const lines = [
      ...reader.push(Buffer.from('{"id":1,"a')),
      ...reader.push(Buffer.from('bcdefghijklmnop","z":2}\nok')),
      ...reader.push(Buffer.from('\n')),
    ];
    expect(lines).toEqual([
      {
        kind: 'oversize',
        bytes: 33,
        head: '{"id":1,"abcdefghijklmnop","z":2}',
        tail: '{"id":1,"abcdefghijklmnop","z":2}',
      },
      { kind: 'line', line: Buffer.from('ok') },
    ]);
  });
});
