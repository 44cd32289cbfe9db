/**
 * The replay rule also reads the journal back through its file format: a serializer that lost
 * an entry would make every stored session unreadable, and the check must say so. No journal
 * trips this with the real serializer, so it is replaced here by one that drops the last entry.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../src/index.js';
import { checkLoopInvariants } from '../../src/testing/index.js';

vi.mock('../../src/session/journal-file.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/session/journal-file.js')>();
  return {
    ...original,
    serializeJournal: (journal: readonly JournalEntry[], meta?: Readonly<Record<string, string>>) =>
      original.serializeJournal(journal.slice(0, -1), meta),
  };
});

describe('the replay rule', () => {
  it('reports a journal that does not survive its file format', () => {
    const journal: JournalEntry[] = [
      { type: 'user_message', content: 'go' },
      { type: 'turn_start' },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      { type: 'transition', from: 'awaitingModel', to: 'done', event: 'MODEL_TURN' },
      { type: 'agent_end', response: '' },
    ];
    expect(checkLoopInvariants(journal).filter((v) => v.rule === 'replay')).toEqual([
      { rule: 'replay', message: 'the journal does not survive its file format' },
    ]);
  });
});
