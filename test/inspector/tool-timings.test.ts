import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseTimings,
  readTimingFile,
  serializeTimings,
  timingPath,
  writeTimingFile,
} from '../../src/inspector/tool-timings.js';

const dir = mkdtempSync(join(tmpdir(), 'timings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tool timing sidecar', () => {
  it('round-trips through a file beside the journal', async () => {
    const journal = join(dir, 'run.jsonl');
    const timings = [
      { callId: 'c1', durationMs: 1.5 },
      { callId: 'c2', durationMs: 0 },
    ];
    await writeTimingFile(journal, timings);
    expect(timingPath(journal)).toBe(`${journal}.timing.jsonl`);
    expect(await readTimingFile(journal)).toEqual(timings);
  });

  it('is optional: a journal without a sidecar has no timings', async () => {
    expect(await readTimingFile(join(dir, 'none.jsonl'))).toEqual([]);
  });

  it('skips bad lines with a warning naming each (the sidecar is advisory), and keeps the good ones', () => {
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    const text = serializeTimings([{ callId: 'c1', durationMs: 1 }]);
    expect(
      parseTimings(`${text}{"callId":3}\nnope\n{"callId":"c2","durationMs":2}\n`, 'x.timing.jsonl', { onWarning }),
    ).toEqual([
      { callId: 'c1', durationMs: 1 },
      { callId: 'c2', durationMs: 2 },
    ]);
    expect(warnings).toEqual([
      'x.timing.jsonl: skipped line 3: not {callId, durationMs}',
      'x.timing.jsonl: skipped line 4: not JSON',
    ]);
  });

  it('gives no timings, with a warning, for a file without the header', () => {
    const warnings: string[] = [];
    expect(parseTimings('{"callId":"c1","durationMs":1}\n', 'x', { onWarning: (m) => warnings.push(m) })).toEqual([]);
    expect(warnings).toEqual(['x: line 1 is not a version 1 timing header; tool durations are not shown']);
  });
});
