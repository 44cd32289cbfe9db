import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { parseJournal, readJournalFile, serializeJournal, writeJournalFile } from '../../src/journal.js';

const journal: JournalEntry[] = [
  { type: 'user_message', content: 'hi' },
  { type: 'turn_start' },
  { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
  { type: 'agent_end', response: 'ok' },
];

describe('journal files', () => {
  it('round-trips through JSON Lines with a versioned header', () => {
    const text = serializeJournal(journal);
    expect(text.split('\n')[0]).toBe('{"format":"agent-harness-journal","version":6}');
    expect(parseJournal(text)).toEqual(journal);
  });

  it('reads the committed version-1 fixture', () => {
    const text = readFileSync(new URL('../fixtures/journal-v1.jsonl', import.meta.url), 'utf8');
    const entries = parseJournal(text);
    expect(entries.map((entry) => entry.type)).toContain('transition');
    expect(entries.at(-1)?.type).toBe('agent_end');
  });

  it('refuses an unknown version and a bad line with clear errors', () => {
    expect(() => parseJournal('{"format":"agent-harness-journal","version":99}\n')).toThrowError(
      /version 99 is not supported/,
    );
    expect(() => parseJournal('{"format":"agent-harness-journal","version":1}\n{oops\n')).toThrowError(
      /line 2 is not JSON/,
    );
    expect(() => parseJournal('')).toThrowError(/empty/);
  });

  it('drops a torn last line (no newline, not JSON) with a warning naming it, and keeps the rest', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'run.jsonl');
    await writeJournalFile(path, journal);
    appendFileSync(path, '{"type":"tool_res'); // a run killed mid-append
    const warnings: string[] = [];
    expect(await readJournalFile(path, { onWarning: (message) => warnings.push(message) })).toEqual(journal);
    expect(warnings).toEqual([
      `${path}: dropped a torn last line (line 6, 17 bytes without a newline): a write cut short, never complete`,
    ]);
  });

  it('keeps a complete last line without its newline, and refuses a bad line that is not torn as journal_corrupt', () => {
    const text = serializeJournal(journal);
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    expect(parseJournal(text.slice(0, -1), { onWarning })).toEqual(journal);
    expect(warnings).toEqual([]);
    const lines = text.split('\n');
    const middle = [...lines.slice(0, 2), '{"type":"tu', ...lines.slice(2)].join('\n');
    expect(() => parseJournal(middle, { source: 'run.jsonl', onWarning })).toThrowError(
      expect.objectContaining({
        reason: 'journal_corrupt',
        message: expect.stringMatching(/^run.jsonl: line 3 is not JSON/),
      }),
    );
    // A bad last line followed by its newline was written whole: corrupt, not torn.
    expect(() => parseJournal(`${text}{oops\n`, { onWarning })).toThrowError(
      expect.objectContaining({ reason: 'journal_corrupt', message: expect.stringContaining('line 6 is not JSON') }),
    );
    expect(warnings).toEqual([]);
  });

  it('writes atomically and leaves no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const path = join(dir, 'run.jsonl');
    await writeJournalFile(path, journal);
    expect(await readJournalFile(path)).toEqual(journal);
    expect(readdirSync(dir)).toEqual(['run.jsonl']);
  });
});
