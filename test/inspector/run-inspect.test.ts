import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommand } from '../../src/cli/commands/run.js';
import type { InspectorSnapshot } from '../../src/inspector/inspector-feed.js';
import { readTimingFile } from '../../src/inspector/tool-timings.js';
import { type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { cliWorkspace } from '../cli/support/cli-harness.js';
import { capture } from './support/capture.js';

let model: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await model?.close();
  model = undefined;
});

describe('agent-harness run --inspect', () => {
  it('serves the run live on 127.0.0.1, then until stopped; --journal also saves tool durations beside it', async () => {
    model = await startFakeServer([
      { chunks: [fixture('openai/parallel-tool-calls.sse')] },
      { chunks: [fixture('openai/text.sse')] },
    ]);
    const cwd = cliWorkspace();
    const journal = `${cwd}/run.jsonl`;
    const out = capture();
    const stop = new AbortController();
    const args = ['What is here?', '--inspect', '--base-url', `${model.url}/v1`, '--cwd', cwd, '--journal', journal];
    const running = createRunCommand({ handleSigint: false })(args, out, stop.signal, capture());
    const [, url = ''] = await out.line(/^inspector: (http:\/\/127\.0\.0\.1:\d+\/)\n/m);
    await out.line(/serving until Ctrl-C/);
    const snapshot = (await (await fetch(new URL('api/snapshot', url))).json()) as InspectorSnapshot;
    expect(snapshot).toMatchObject({ title: 'What is here?', live: true });
    const calls = snapshot.steps.filter((s) => s.kind === 'tool_call');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((s) => s.tool?.durationMs !== undefined)).toBe(true);
    expect(snapshot.steps.at(-1)).toMatchObject({ kind: 'answer', state: 'done' });
    expect((await readTimingFile(journal)).map((t) => t.callId).sort()).toEqual(
      calls.map((s) => s.tool?.callId ?? '').sort(),
    );
    stop.abort(); // the run is over: this only stops the page
    expect(await running).toBe(0);
  });

  it('refuses a bad --port before calling the model', async () => {
    const run = createRunCommand({ handleSigint: false });
    await expect(run(['task', '--inspect', '--port', '99999'], capture(), undefined, capture())).rejects.toThrow(
      "--port must be a number from 0 to 65535, got '99999'",
    );
  });
});
