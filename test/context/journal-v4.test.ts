import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/index.js';
import { TimelineBuilder } from '../../src/inspector/timeline-builder.js';
import { parseJournal, serializeJournal } from '../../src/journal.js';

// Written once by a version-4 run with `context: { maxTokens: 300 }`; never regenerated.
const text = () => readFileSync(new URL('../fixtures/journal-v4-compaction.jsonl', import.meta.url), 'utf8');

describe('a version-4 journal with a compaction', () => {
  it('replays to the compacted context, byte for byte', () => {
    const journal = parseJournal(text());
    const session = Session.replay(journal);
    // Entry for entry; the header names the version this library writes now.
    expect(serializeJournal(session.journal).split('\n').slice(1)).toEqual(text().split('\n').slice(1));
    const tools = session.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(tools.slice(0, 2)).toEqual([
      '[elided 408 characters of tool output to save context]',
      '[elided 408 characters of tool output to save context]',
    ]);
    expect(tools[2]).toMatch(/^page 3: word word/);
    expect(session.messages.filter((m) => m.role === 'assistant').map((m) => m.toolCalls?.[0]?.callId)).toEqual([
      'p1',
      'p2',
      'p3',
    ]);
  });

  it('shows the compaction on the timeline: what was replaced, and the sizes', () => {
    const builder = new TimelineBuilder();
    for (const entry of parseJournal(text())) builder.addEntry(entry);
    const step = builder.steps.find((s) => s.kind === 'compaction');
    expect(step?.title).toBe('context compacted (elide): 368 → 192 tokens');
    expect(step?.text).toBe('2 tool output(s) of messages 2–4 (3) elided');
  });

  it('refuses a compaction that names messages the context does not have, and malformed ones', () => {
    const lines = text().trimEnd().split('\n');
    const at = lines.findIndex((line) => line.includes('"type":"compaction"'));
    const broken = (edit: (entry: Record<string, unknown>) => void) => {
      const entry = JSON.parse(lines[at] as string);
      edit(entry);
      return [...lines.slice(0, at), JSON.stringify(entry), ...lines.slice(at + 1)].join('\n');
    };
    expect(() => Session.replay(parseJournal(broken((e) => (e.to = 99))))).toThrow(
      /compaction replaces messages 2 to 99, but the context holds 7/,
    );
    expect(() => parseJournal(broken((e) => (e.to = 1)))).toThrow(/'to' \(1\) is before 'from' \(2\)/);
    expect(() => parseJournal(broken((e) => (e.strategy = 'drop')))).toThrow(
      /'strategy' must be one of elide, summarise/,
    );
    expect(() => parseJournal(broken((e) => (e.messages = [{ role: 'robot', content: 'x' }])))).toThrow(
      /messages\[0\]\.role must be system, user, assistant or tool/,
    );
    expect(() => parseJournal(broken((e) => (e.tokensAfter = -1)))).toThrow(
      /'tokensAfter' must be a non-negative integer/,
    );
  });
});
