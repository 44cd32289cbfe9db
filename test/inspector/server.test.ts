import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/index.js';
import { InspectorFeed, type InspectorSnapshot } from '../../src/inspector/inspector-feed.js';
import { type InspectorServer, startInspector } from '../../src/inspector/inspector-server.js';
import type { TimelineStep } from '../../src/inspector/timeline-step.js';
import { collect, makeAgent, textTurn } from '../support/fixtures.js';
import { getWithHost, readEvents, type SentEvent } from './support/http.js';
import { recordRun } from './support/recorded-run.js';

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function savedServer(): Promise<InspectorServer> {
  const { journal } = await recordRun();
  server = await startInspector(InspectorFeed.fromJournal(journal, { title: 'run.jsonl' }));
  return server;
}

describe('startInspector', () => {
  it('binds 127.0.0.1 on a free port by default', async () => {
    const { url } = await savedServer();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves the page and its assets from the package, with a strict content security policy', async () => {
    const { url } = await savedServer();
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/inspector.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['inspector.js', 'diagram.js', 'timeline.js', 'dom.js', 'inspector.css']) {
      const response = await fetch(new URL(asset, url));
      expect(response.status).toBe(200);
      expect(await response.text()).not.toMatch(/(src|href)=["']https?:/);
    }
    expect((await fetch(new URL('nope', url))).status).toBe(404);
  });

  it('gives the snapshot as JSON', async () => {
    const { url } = await savedServer();
    const snapshot = (await (await fetch(new URL('api/snapshot', url))).json()) as InspectorSnapshot;
    expect(snapshot).toMatchObject({ title: 'run.jsonl', live: false, graph: { initial: 'awaitingModel' } });
    expect(snapshot.steps.length).toBeGreaterThan(10);
  });

  it('refuses requests for other host names (DNS rebinding)', async () => {
    const { url } = await savedServer();
    const port = new URL(url).port;
    expect((await getWithHost(url, `evil.example:${port}`)).status).toBe(403);
    expect((await getWithHost(url, `localhost:${port}`)).status).toBe(200);
  });

  it('streams a snapshot, then live changes, as Server-Sent Events', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = new ScriptedClient([
      async () => {
        await gate;
        return textTurn('done now');
      },
    ]);
    const { agent } = makeAgent(client, [], { cwd: process.cwd() });
    const { feed, detach } = InspectorFeed.ofAgent(agent, 'live');
    server = await startInspector(feed);
    const running = collect(agent.run('hello'));
    const answered = (events: readonly SentEvent[]) =>
      events.some((e) => e.event === 'steps' && (e.data as TimelineStep[]).some((s) => s.kind === 'answer'));
    const events = await readEvents(new URL('api/events', server.url).href, answered, () => release());
    await running;
    detach();
    expect(events[0]?.event).toBe('snapshot');
    expect(events[0]?.data).toMatchObject({ title: 'live', live: true });
    const later = events.slice(1).flatMap((e) => e.data as TimelineStep[]);
    expect(events.slice(1).every((e) => e.event === 'steps')).toBe(true);
    expect(later.map((s) => s.kind)).toEqual(expect.arrayContaining(['turn', 'transition', 'answer']));
    expect(later.find((s) => s.kind === 'answer')).toMatchObject({ state: 'done', text: 'done now' });
  });
});
