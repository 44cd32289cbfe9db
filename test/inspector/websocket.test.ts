import { request } from 'node:http';
import { createWebSocketInspector } from '@statelyai/inspect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { machineGraph } from '../../src/diagram.js';
import { Agent, agentMachine, ScriptedClient } from '../../src/index.js';
import { InspectionFeed } from '../../src/inspector/inspection-feed.js';
import { InspectorFeed } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { encodeFrame, MAX_MESSAGE_BYTES, parseFrame } from '../../src/inspector/websocket-server.js';
import { collect, makeAgent, textTurn, toolTurn } from '../support/fixtures.js';
import { lookupTool } from './support/recorded-run.js';
import { clientFrame } from './support/ws-client.js';

describe('WebSocket frames', () => {
  it('reads masked text frames of each length encoding', () => {
    for (const size of [5, 300, 70_000]) {
      const text = 'x'.repeat(size);
      const parsed = parseFrame(clientFrame(1, text));
      expect(parsed).toMatchObject({ kind: 'frame', fin: true, opcode: 1 });
      expect(parsed.kind === 'frame' && parsed.payload.toString()).toBe(text);
    }
  });

  it('waits for the rest of a split frame, and refuses unmasked or oversized frames', () => {
    const frame = clientFrame(1, 'hello');
    expect(parseFrame(frame.subarray(0, 4))).toEqual({ kind: 'incomplete' });
    expect(parseFrame(encodeFrame(1, Buffer.from('hi')))).toEqual({
      kind: 'invalid',
      reason: 'client frames must be masked',
    });
    const huge = Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0]);
    expect(parseFrame(huge)).toEqual({ kind: 'invalid', reason: 'message too large' });
  });
});

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function listening(): Promise<{ feed: InspectionFeed; url: string }> {
  const feed = new InspectionFeed();
  server = await startInspector(feed);
  return { feed, url: server.url.replace(/^http/, 'ws').replace(/\/$/, '') };
}

describe('the @statelyai/inspect WebSocket protocol', () => {
  it('inspects any XState app: its machine from the definition, its events and state changes', async () => {
    const { feed, url } = await listening();
    const inspector = createWebSocketInspector({ url });
    const toggle = createMachine({
      id: 'toggle',
      initial: 'off',
      states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } },
    });
    const actor = createActor(toggle, { inspect: inspector.inspect }).start();
    actor.send({ type: 'FLIP' });
    actor.send({ type: 'FLIP' });
    await vi.waitFor(() => expect(feed.snapshot().steps.filter((s) => s.kind === 'transition')).toHaveLength(2));
    inspector.stop();
    const snapshot = feed.snapshot();
    expect(snapshot.title).toBe('toggle');
    expect(snapshot.graph.states.map((s) => s.id)).toEqual(['off', 'on']);
    expect(snapshot.steps.map((s) => [s.kind, s.title, s.state])).toEqual([
      ['actor', 'actor started: toggle', 'off'],
      ['event', 'event xstate.init', 'off'],
      ['event', 'event FLIP', 'off'],
      ['transition', 'off → on', 'on'],
      ['event', 'event FLIP', 'on'],
      ['transition', 'on → off', 'off'],
    ]);
  });

  it("inspects an Agent through its inspect option: the agent machine's graph, its child tool actors", async () => {
    const { feed, url } = await listening();
    const inspector = createWebSocketInspector({ url });
    const client = new ScriptedClient([toolTurn('c1', 'lookup', { q: 'alpha' }), textTurn('done')]);
    const { config, session } = makeAgent(client, [lookupTool], { cwd: process.cwd() });
    const agent = new Agent(config, { session, inspect: inspector.inspect });
    await collect(agent.run('look up alpha'));
    await vi.waitFor(() => expect(feed.snapshot().steps.at(-1)?.state).toBe('done'));
    inspector.stop();
    const snapshot = feed.snapshot();
    // The protocol serialises definitions with sorted keys, so compare edges as sets.
    const edges = (list: readonly { from: string; to: string; event: string }[]) =>
      list.map((e) => `${e.from} -> ${e.to} on ${e.event}`).sort();
    expect(edges(snapshot.graph.edges)).toEqual(edges(machineGraph(agentMachine).edges));
    const titles = snapshot.steps.map((s) => s.title);
    expect(titles).toContain('child actor: tool-0');
    expect(titles).toContain('awaitingModel → executingTools');
    expect(titles).toContain('event TOOL_SETTLED');
  });

  it('closes a connection whose fragmented message grows past the size limit (1009)', async () => {
    const { url } = await listening();
    const http = url.replace(/^ws/, 'http');
    const closeCode = await new Promise<number>((resolve, reject) => {
      const req = request(http, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          origin: http,
        },
      });
      req.on('upgrade', (_response, socket) => {
        socket.on('data', (chunk: Buffer) => {
          if (((chunk[0] ?? 0) & 0x0f) === 8) resolve(chunk.readUInt16BE(2));
        });
        socket.on('error', () => {});
        const piece = 'x'.repeat(1024 * 1024);
        const pieces = MAX_MESSAGE_BYTES / piece.length + 1;
        for (let i = 0; i < pieces; i++) socket.write(clientFrame(i === 0 ? 1 : 0, piece, false));
      });
      req.on('error', reject);
      req.end();
    });
    expect(closeCode).toBe(1009);
  });

  it('refuses pages of another origin even when bound to every interface', async () => {
    const feed = new InspectionFeed();
    const open = await startInspector(feed, { host: '0.0.0.0' });
    try {
      const port = new URL(open.url).port;
      const http = `http://127.0.0.1:${port}`;
      expect(await upgradeStatus(http, { origin: 'https://evil.example' })).toBe(403);
      expect(await upgradeStatus(http, { origin: http })).toBe(101);
    } finally {
      await open.close();
    }
  });

  it('is refused for a journal feed, and for pages of another origin', async () => {
    const saved = await startInspector(InspectorFeed.fromJournal([], { title: 'x' }));
    try {
      expect(await upgradeStatus(saved.url, {})).toBe(403);
      const { url } = await listening();
      const http = url.replace(/^ws/, 'http');
      expect(await upgradeStatus(http, { origin: 'https://evil.example' })).toBe(403);
      expect(await upgradeStatus(http, { origin: http })).toBe(101);
    } finally {
      await saved.close();
    }
  });
});

/** The status a WebSocket upgrade request gets (101 when accepted). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
