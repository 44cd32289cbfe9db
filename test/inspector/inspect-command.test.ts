import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCommand } from '../../src/cli/commands/demo.js';
import { inspectCommand } from '../../src/cli/commands/inspect.js';
import { main } from '../../src/cli/main.js';
import { openStore } from '../../src/index.js';
import type { InspectorSnapshot } from '../../src/inspector/inspector-feed.js';
import { readTimingFile, timingPath, writeTimingFile } from '../../src/inspector/tool-timings.js';
import { writeJournalFile } from '../../src/journal.js';
import type { StoredEntry } from '../../src/stores/index.js';
import { capture } from './support/capture.js';
import { recordRun } from './support/recorded-run.js';

const dir = mkdtempSync(join(tmpdir(), 'inspect-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m;

async function snapshotAt(url: string): Promise<InspectorSnapshot> {
  return (await (await fetch(new URL('api/snapshot', url))).json()) as InspectorSnapshot;
}

describe('agent-harness inspect', () => {
  it('serves a saved journal with its timing sidecar, says its URL on one line, stops on the signal', async () => {
    const { journal, timings } = await recordRun();
    const path = join(dir, 'run.jsonl');
    await writeJournalFile(path, journal);
    await writeTimingFile(path, timings);
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand([path], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    const snapshot = await snapshotAt(url);
    expect(snapshot).toMatchObject({ title: 'run.jsonl', live: false });
    const durations = snapshot.steps.flatMap((s) => (s.tool ? [s.tool.durationMs] : []));
    expect(durations).toEqual(timings.map((t) => t.durationMs));
    stop.abort();
    expect(await serving).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('--listen serves XState apps over WebSocket and says how they connect', async () => {
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand(['--listen'], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    const [, ws] = await out.line(/createWebSocketInspector\(\{ url: '(ws:\/\/127\.0\.0\.1:\d+)' \}\)/);
    expect(ws).toBe(url.replace('http', 'ws').replace(/\/$/, ''));
    expect(await snapshotAt(url)).toMatchObject({ title: 'waiting for an XState app', live: true, steps: [] });
    stop.abort();
    expect(await serving).toBe(0);
    const err = capture();
    expect(await main(['inspect', '--listen', 'run.jsonl'], capture(), err)).toBe(2);
    expect(err.text()).toContain('--listen takes no journal file');
  });

  it('is bad usage without exactly one file, or with a bad port', async () => {
    const err = capture();
    expect(await main(['inspect'], capture(), err)).toBe(2);
    expect(err.text()).toContain('give exactly one journal file');
    expect(await main(['inspect', 'a.jsonl', '--port', 'http'], capture(), err)).toBe(2);
    expect(err.text()).toContain("--port must be a number from 0 to 65535, got 'http'");
  });

  it('shows a journal whose timing sidecar has a bad line, skipping that line with a warning', async () => {
    const { journal, timings } = await recordRun();
    const path = join(dir, 'bad-timing.jsonl');
    await writeJournalFile(path, journal);
    await writeTimingFile(path, timings);
    appendFileSync(timingPath(path), '{"callId":\n');
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const serving = inspectCommand([path], out, stop.signal, err);
    const [, url = ''] = await out.line(URL_LINE);
    expect(err.text()).toBe(`warning: ${timingPath(path)}: skipped line ${timings.length + 2}: not JSON\n`);
    const durations = (await snapshotAt(url)).steps.flatMap((s) => (s.tool ? [s.tool.durationMs] : []));
    expect(durations).toEqual(timings.map((t) => t.durationMs));
    stop.abort();
    expect(await serving).toBe(0);
  });

  it('shows a journal whose last line is torn (a run killed mid-append), with a warning', async () => {
    const { journal } = await recordRun();
    const path = join(dir, 'torn.jsonl');
    await writeJournalFile(path, journal);
    appendFileSync(path, '{"type":"tool_result","callId":"c');
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const serving = inspectCommand([path], out, stop.signal, err);
    const [, url = ''] = await out.line(URL_LINE);
    expect(err.text()).toContain(`warning: ${path}: dropped a torn last line (line ${journal.length + 2}`);
    expect((await snapshotAt(url)).steps.at(-1)?.entries).toBe(journal.length);
    stop.abort();
    expect(await serving).toBe(0);
  });

  it('fails with the journal error for an unreadable or missing journal (bad usage, exit 2)', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, 'not a journal\n');
    const err = capture();
    expect(await main(['inspect', path], capture(), err)).toBe(2);
    expect(err.text()).toContain('line 1 is not JSON');
    expect(await main(['inspect', join(dir, 'missing.jsonl')], capture(), err)).toBe(2);
    expect(err.text()).toContain('ENOENT');
  });
});

describe('agent-harness demo', () => {
  it('saves tool durations beside the journal, never in it', async () => {
    const path = join(dir, 'demo.jsonl');
    expect(await demoCommand(['--journal', path], capture())).toBe(0);
    const timings = await readTimingFile(path);
    expect(timings.map((t) => t.callId).sort()).toEqual(['call-1', 'call-2']); // in order of completion
    expect(existsSync(timingPath(path))).toBe(true);
    expect(readFileSync(path, 'utf8')).not.toMatch(/duration|"at"|Ms"/);
  });

  it('--inspect serves the run live, then until the signal', async () => {
    const out = capture();
    const stop = new AbortController();
    const running = demoCommand(['--journal', join(dir, 'live.jsonl'), '--inspect'], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    await out.line(/serving until Ctrl-C/);
    const snapshot = await snapshotAt(url);
    expect(snapshot).toMatchObject({ live: true });
    expect(snapshot.steps.at(-1)).toMatchObject({ kind: 'answer', state: 'done' });
    stop.abort();
    expect(await running).toBe(0);
  });
});

describe('agent-harness inspect ID', () => {
  it('serves a stored session, priced at the rates stored with it, and says how to fork it', async () => {
    const { journal } = await recordRun();
    const store = await openStore('memory:inspect-by-id');
    const writer = await store.openWriter('s1', {
      meta: { journalVersion: '2', model: 'm-1', inputRatePer1k: '1', outputRatePer1k: '2' },
    });
    await writer.append(journal as unknown as StoredEntry[]);
    await writer.close();
    const out = capture();
    const stop = new AbortController();
    const serving = inspectCommand(['s1', '--store', 'memory:inspect-by-id'], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    expect(out.text()).toContain(
      `inspector: session s1, ${journal.length} entries; "fork here" on a step (or agent-harness fork s1 --at N) goes on from an earlier point\n`,
    );
    const snapshot = await snapshotAt(url);
    expect(snapshot.title).toBe('session s1 (m-1)');
    const last = snapshot.steps.filter((step) => step.usage !== undefined).at(-1);
    const usage = last?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    expect(usage.totalTokens).toBeGreaterThan(0);
    expect(last?.cost).toBeCloseTo(usage.promptTokens / 1000 + (2 * usage.completionTokens) / 1000, 9);
    stop.abort();
    expect(await serving).toBe(0);
    await store.close();
  });
});
