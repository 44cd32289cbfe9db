import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedClient, ToolRegistry } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/connect-mcp.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { closeLater, stopLater } from './support/sources.js';
import { type HttpTestServer, startHttpTestServer } from './support/test-server-process.js';

// One server for the tests that leave it running; the tests that crash it start their own.
let shared: HttpTestServer;
// A child process running tsx: slow to start on a busy machine, hence the longer hook limit.
beforeAll(async () => {
  shared = await startHttpTestServer();
}, 30_000);
afterAll(() => shared.stop());

async function connected(options: { toolTimeoutMs?: number; own?: boolean } = {}) {
  const server = options.own ? stopLater(await startHttpTestServer()) : shared;
  const source = closeLater(await connectMcp({ url: server.url, name: 'test', reconnect: { backoffMs: 20 } }));
  const registry = new ToolRegistry({ toolTimeoutMs: options.toolTimeoutMs } as never).register(...source.tools);
  return { server, source, registry };
}

/** The server's own count of the cancellations it received. */
async function cancellations(registry: ToolRegistry): Promise<number> {
  const output = (await registry.invoke('stats', {})).output ?? '';
  return Number(/^cancelled=(\d+) /.exec(output)?.[1]);
}

/** Polls the count until it passes `before` (the cancellation notice travels on its own). */
async function cancellationAfter(registry: ToolRegistry, before: number): Promise<number> {
  let count = before;
  for (let i = 0; i < 100 && count === before; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    count = await cancellations(registry);
  }
  return count;
}

describe('MCP calls and a long-lived signal', () => {
  it('do not pile listeners on the signal (the SDK never removes the one it adds per request)', async () => {
    const { registry } = await connected();
    const controller = new AbortController();
    const listeners = () => getEventListeners(controller.signal, 'abort').length;
    const counts: number[] = [];
    for (let i = 0; i < 15; i++) {
      expect(await registry.invoke('echo', { text: `call ${i}` }, { signal: controller.signal })).toEqual({
        success: true,
        output: `call ${i}`,
      });
      counts.push(listeners());
    }
    // The registry's one shared watcher of the signal (src/tools/abort-watchers.ts), and nothing per call.
    expect(new Set(counts)).toEqual(new Set([1]));
  });
});

describe('MCP faults become error results (streamable HTTP test server)', () => {
  it('passes text through, and images on as parts', async () => {
    const { registry } = await connected();
    expect(await registry.invoke('echo', { text: 'héllo\u001b[2J' })).toEqual({
      success: true,
      output: 'héllo\u001b[2J',
    });
    expect(await registry.invoke('image', {})).toEqual({
      success: true,
      output: 'a red dot:\n[image image/png, 1234 bytes]',
      content: [
        { type: 'text', text: 'a red dot:' },
        { type: 'image', mediaType: 'image/png', data: Buffer.alloc(1234).toString('base64') },
      ],
    });
  });

  it('a result flagged isError is an error result with the server text', async () => {
    const { registry } = await connected();
    expect(await registry.invoke('fail', {})).toEqual({ success: false, error: 'the tool failed on purpose' });
  });

  it('a JSON-RPC error answer is an error result naming the server and the tool', async () => {
    const { registry } = await connected();
    const result = await registry.invoke('protocol_error', {});
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /^MCP server 'test' answered 'protocol_error' with a protocol error: MCP error -32602: .*protocol error on purpose$/,
    );
  });

  it('a hung call ends at the tool timeout, and the server is sent the cancellation', async () => {
    const { registry } = await connected({ toolTimeoutMs: 300 });
    const before = await cancellations(registry);
    expect(await registry.invoke('hang', {})).toEqual({ success: false, error: "Tool 'hang' timed out after 300 ms" });
    expect(await cancellationAfter(registry, before)).toBe(before + 1);
  });

  it("a hung call ends when the invocation's signal aborts, and the server is sent the cancellation", async () => {
    const { registry } = await connected();
    const before = await cancellations(registry);
    const controller = new AbortController();
    const pending = registry.invoke('hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort('run aborted'), 100);
    expect(await pending).toEqual({ success: false, error: "Tool 'hang' was aborted: run aborted" });
    expect(await cancellationAfter(registry, before)).toBe(before + 1);
  });

  it('a server that dies mid-call is an error result; the next call reconnects once it is back', async () => {
    const { server, registry } = await connected({ own: true });
    const crash = await registry.invoke('crash', {});
    expect(crash.success).toBe(false);
    expect(crash.error).toMatch(/^MCP server 'test' was lost during 'crash': .*; the next call reconnects$/);
    await server.exited;
    const restarted = stopLater(await startHttpTestServer(server.port));
    expect(await registry.invoke('echo', { text: 'back' })).toEqual({ success: true, output: 'back' });
    expect((await registry.invoke('stats', {})).output).toBe(`cancelled=0 pid=${restarted.child.pid}`);
  });

  it('a server that stays down gives a clear error after a bounded number of attempts', async () => {
    const { server, registry } = await connected({ own: true });
    await registry.invoke('crash', {});
    await server.exited;
    const down = await registry.invoke('echo', { text: 'anyone?' });
    expect(down.success).toBe(false);
    expect(down.error).toMatch(
      /^MCP server 'test' is down \(.+\); reconnecting failed 2 times: .*could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed \(ECONNREFUSED\)$/,
    );
  });

  it('an agent run sees every fault as an Error: observation and still ends with agent_end', async () => {
    const server = stopLater(await startHttpTestServer());
    const source = closeLater(await connectMcp({ url: server.url, name: 'test', reconnect: { backoffMs: 20 } }));
    const client = new ScriptedClient([
      toolTurn('c1', 'fail', {}),
      toolTurn('c2', 'protocol_error', {}),
      toolTurn('c3', 'hang', {}),
      toolTurn('c4', 'crash', {}),
      toolTurn('c5', 'echo', { text: 'still there?' }),
      textTurn('The server is unreliable.'),
    ]);
    const { agent, session } = makeAgent(
      client,
      source.tools.map((tool) => () => tool),
      {
        maxTurns: 10,
        // Long enough that a loaded machine never times out the calls meant to fail otherwise.
        toolTimeoutMs: 1500,
      },
    );
    const events = await collect(agent.run('Try the tools.'));
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'The server is unreliable.' } });
    const observations = session.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(observations).toHaveLength(5);
    for (const observation of observations) expect(observation).toMatch(/^Error: /);
    expect(observations[0]).toBe('Error: the tool failed on purpose');
    expect(observations[2]).toBe("Error: Tool 'hang' timed out after 1500 ms");
    expect(observations[3]).toMatch(/^Error: MCP server 'test' was lost during 'crash'/);
    expect(observations[4]).toMatch(/^Error: MCP server 'test' is down/);
  });
});
