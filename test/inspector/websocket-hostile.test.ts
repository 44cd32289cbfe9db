import { afterEach, describe, expect, it, vi } from 'vitest';
import { inspectCommand } from '../../src/cli/commands/inspect.js';
import { InspectionFeed } from '../../src/inspector/inspection-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import { TERMINAL_CONTROL } from '../support/terminal.js';
import { capture } from './support/capture.js';
import { openWebSocket } from './support/ws-client.js';

const actor = (sessionId: string, name: string) => JSON.stringify({ type: '@xstate.actor', sessionId, name });

/** An inspection event whose payload is nested `depth` arrays deep. */
function deepEvent(sessionId: string, depth: number): string {
  return `{"type":"@xstate.event","sessionId":"${sessionId}","event":{"type":"x","v":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('inspect --listen with hostile WebSocket clients', () => {
  it('closes a client whose message is nested 200k levels deep (1008), logs it, and serves the next client', async () => {
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const serving = inspectCommand(['--listen'], out, stop.signal, err);
    const [, url = ''] = await out.line(/^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m);
    const snapshot = async () => (await (await fetch(new URL('api/snapshot', url))).json()) as { title: string };

    const hostile = await openWebSocket(url);
    hostile.sendText(actor('a', 'first'));
    hostile.sendText(deepEvent('a', 200_000));
    expect((await hostile.closed).code).toBe(1008);
    await err.line(/closed a WebSocket client \(1008\): message nested deeper than \d+ levels\n/);

    const next = await openWebSocket(url);
    next.sendText(actor('b', 'second'));
    await vi.waitFor(async () => expect((await snapshot()).title).toBe('second'));
    next.socket.destroy();
    stop.abort();
    expect(await serving).toBe(0);
  });

  it('closes a client whose message the feed cannot take (1011), with a filtered log line', async () => {
    const warnings: string[] = [];
    const feed = new InspectionFeed();
    const throwing = {
      snapshot: () => feed.snapshot(),
      subscribe: feed.subscribe.bind(feed),
      receive: (message: unknown) => {
        if ((message as { boom?: boolean }).boom) throw new Error('bad \u001b]0;pwned\u0007\u202ething');
        feed.receive(message);
      },
    };
    server = await startInspector(throwing, { onWarning: (line) => warnings.push(line) });
    const bad = await openWebSocket(server.url);
    bad.sendText('{"boom":true}');
    expect((await bad.closed).code).toBe(1011);
    const good = await openWebSocket(server.url);
    good.sendText(actor('c', 'third'));
    await vi.waitFor(() => expect(feed.title).toBe('third'));
    good.socket.destroy();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('closed a WebSocket client (1011): bad');
    expect(warnings[0]).not.toMatch(TERMINAL_CONTROL);
    expect(warnings[0]).toContain('bad ⟨U+001B⟩]0;pwned⟨U+0007⟩⟨U+202E⟩thing'); // shown, not acting
  });

  it('closes a client that sends text that is not JSON (1007), and keeps a normal nesting', async () => {
    const feed = new InspectionFeed();
    server = await startInspector(feed);
    const client = await openWebSocket(server.url);
    client.sendText(actor('d', 'fourth'));
    client.sendText(deepEvent('d', 20));
    await vi.waitFor(() => expect(feed.snapshot().steps.map((s) => s.title)).toContain('event x'));
    client.sendText('not json');
    expect((await client.closed).code).toBe(1007);
  });
});
