import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type JournalEntry,
  parseJournal,
  readJournalFile,
  serializeJournal,
  writeJournalFile,
} from '../../src/index.js';

const journal: JournalEntry[] = [
  { type: 'user_message', content: 'hi' },
  { type: 'turn_start' },
  { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
  { type: 'agent_end', response: 'ok' },
];

describe('journal files', () => {
  it('round-trips through JSON Lines with a versioned header', () => {
    const text = serializeJournal(journal);
    expect(text.split('\n')[0]).toBe('{"format":"agent-harness-journal","version":4}');
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

  it('writes atomically and leaves no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const path = join(dir, 'run.jsonl');
    await writeJournalFile(path, journal);
    expect(await readJournalFile(path)).toEqual(journal);
    expect(readdirSync(dir)).toEqual(['run.jsonl']);
  });
});
