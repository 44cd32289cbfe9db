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

  it('refuses a missing header and bad lines, naming the line', () => {
    expect(() => parseTimings('{"callId":"c1","durationMs":1}\n')).toThrow(/line 1 is not a version 1 timing header/);
    const text = serializeTimings([{ callId: 'c1', durationMs: 1 }]);
    expect(() => parseTimings(`${text}{"callId":3}\n`)).toThrow(/line 3 is not \{callId, durationMs\}/);
    expect(() => parseTimings(`${text}nope\n`, 'x.timing.jsonl')).toThrow(/x.timing.jsonl: line 3 is not JSON/);
  });
});
