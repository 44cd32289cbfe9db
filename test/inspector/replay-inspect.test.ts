import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/commands/replay.js';
import type { InspectorSnapshot } from '../../src/inspector/inspector-feed.js';
import { writeCassetteFile } from '../../src/testing/cassettes/cassette-file.js';
import { lookupScript, recordRun } from '../cassettes/support/recording.js';
import { capture } from './support/capture.js';

const dir = mkdtempSync(join(tmpdir(), 'replay-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m;
/** An agent module whose lookup tool is described differently from the recording's. */
const CHANGED = 'examples/cassettes/agent-changed.ts';

async function cassetteFile(): Promise<string> {
  const { cassette } = await recordRun(lookupScript(), { config: { systemPrompt: 'You define words, briefly.' } });
  const path = join(dir, 'lookup.cassette.jsonl');
  await writeCassetteFile(path, cassette);
  return path;
}

describe('agent-harness replay --check --inspect', () => {
  it('on a divergence, prints the report, then serves both timelines at it until the signal; exits 1', async () => {
    const path = await cassetteFile();
    const out = capture();
    const stop = new AbortController();
    const serving = replayCommand([path, '--agent', CHANGED, '--check', '--inspect'], out, stop.signal);
    const [, url = ''] = await out.line(URL_LINE);
    expect(out.text()).toContain('tools offered diverged at step 1');
    const snapshot = (await (await fetch(new URL('api/snapshot', url))).json()) as InspectorSnapshot;
    expect(snapshot.title).toBe('replay of lookup.cassette.jsonl');
    const view = snapshot.divergence;
    expect(view?.divergence).toMatchObject({ kind: 'tools offered', entryIndex: 1 });
    expect(view?.recorded.steps[view.recorded.highlight]).toMatchObject({ kind: 'turn', entries: 2 });
    expect(view?.replayed.steps[view.replayed.highlight]).toMatchObject({ kind: 'turn', entries: 2 });
    stop.abort();
    expect(await serving).toBe(1);
  });

  it('refuses --inspect with --update, and --port without --inspect', async () => {
    const path = await cassetteFile();
    await expect(replayCommand([path, '--agent', CHANGED, '--update', '--inspect'], capture())).rejects.toThrow(
      '--inspect shows a divergence of --check',
    );
    await expect(replayCommand([path, '--agent', CHANGED, '--check', '--port', '0'], capture())).rejects.toThrow(
      '--port chooses where the inspector listens',
    );
  });
});
