import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timingPath, writeTimingFile } from '../../src/inspector/tool-timings.js';
import { writeJournalFile } from '../../src/journal.js';
import { tempWorkspace } from '../support/workspace.js';

const mode = (path: string) => statSync(path).mode & 0o777;

// With umask 0, a file created without an explicit mode would be 0666: the modes below must
// come from the code, not from the usual umask of 022 or 077.
let saved: number;
beforeEach(() => {
  saved = process.umask(0);
});
afterEach(() => {
  process.umask(saved);
});

describe('files that hold a run are private to their owner', () => {
  it('writes a journal 0600, also over an existing 0644 file', async () => {
    const dir = tempWorkspace();
    const fresh = join(dir, 'fresh.jsonl');
    await writeJournalFile(fresh, []);
    expect(mode(fresh)).toBe(0o600);
    const old = join(dir, 'old.jsonl');
    writeFileSync(old, '', { mode: 0o644 });
    await writeJournalFile(old, []);
    expect(mode(old)).toBe(0o600);
  });

  it('writes the timing sidecar 0600', async () => {
    const journal = join(tempWorkspace(), 'run.jsonl');
    writeFileSync(timingPath(journal), '', { mode: 0o666 });
    await writeTimingFile(journal, [{ callId: 'c', durationMs: 1 }]);
    expect(mode(timingPath(journal))).toBe(0o600);
  });
});
