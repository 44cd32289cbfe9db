import type { StoredEntry } from '../../../src/stores/index.js';

/**
 * The entry a test writes at `seq`: deterministic, so a reader can check any prefix without the
 * writer. Every 12th holds a 6 KiB image (one of three), which sqlite and postgres keep as a blob.
 */
export function entryAt(seq: number): StoredEntry {
  if (seq % 12 === 6) {
    const data = Buffer.alloc(6144, `image ${seq % 36}`).toString('base64');
    return {
      type: 'tool_result',
      callId: `call-${seq}`,
      content: [{ type: 'image', mediaType: 'image/png', data }],
      seq,
    };
  }
  switch (seq % 4) {
    case 0:
      return { type: 'turn_start', seq };
    case 1:
      return { type: 'assistant_message', content: `answer ${seq}\n${'·'.repeat(seq % 37)}`, seq };
    case 2:
      return { type: 'tool_result', callId: `call-${seq}`, content: JSON.stringify({ seq, ok: true }), seq };
    default:
      return { type: 'usage', usage: { promptTokens: seq, completionTokens: 2 * seq, totalTokens: 3 * seq }, seq };
  }
}

/** Entries `from` … `from + count - 1`. */
export function entriesAt(from: number, count: number): StoredEntry[] {
  return Array.from({ length: count }, (_, i) => entryAt(from + i));
}

/** Entries whose JSON is easy to get wrong: unicode, escapes, nesting, extreme numbers. */
export const trickyEntries: readonly StoredEntry[] = [
  { type: 'user_message', content: 'line one\nline two\r\n\ttabbed "quoted" \\ back\\slash' },
  { type: 'user_message', content: 'héllo wörld — 日本語 — emoji 🧪👩‍💻 — rtl עברית' },
  { type: 'user_message', content: 'separators \u2028 and \u2029, nul \u0000, bell \u0007, lone \ud800 surrogate' },
  {
    type: 'assistant_message',
    content: '',
    toolCalls: [{ callId: 'c1', name: 'read_file', arguments: '{"path":"a\\nb.txt"}' }],
    nested: { deep: { deeper: { deepest: [1, [2, [3, { four: 4 }]]] } }, empty: {}, none: [] },
  },
  {
    type: 'usage',
    usage: { promptTokens: 9007199254740991, completionTokens: 1e21, totalTokens: 1.7976931348623157e308 },
    small: 5e-324,
    negative: -123456789.123456,
    flags: [true, false, null],
  },
  { type: 'custom.future_type', 'key with spaces': 1, ключ: 'значение', '': 'empty key', '\n': 'newline key' },
];
