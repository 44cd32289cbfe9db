import { describe, expect, it } from 'vitest';
import { truncateOutput } from '../../src/tools/truncate.js';

describe('truncateOutput', () => {
  it('keeps text within the cap unchanged and says how much it cut from longer text', () => {
    expect(truncateOutput('abc', 3)).toBe('abc');
    expect(truncateOutput('x'.repeat(2_000_000), 100_000)).toBe(
      `${'x'.repeat(100_000)}\n[truncated 1,900,000 characters]`,
    );
  });

  it('never keeps half of a surrogate pair', () => {
    const text = `ab${'😀'.repeat(3)}`; // each emoji is two UTF-16 units
    const cut = truncateOutput(text, 3); // the cap falls inside the first emoji
    expect(cut).toBe('ab\n[truncated 6 characters]');
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut); // no lone surrogate to replace
    expect(truncateOutput(text, 4)).toBe('ab😀\n[truncated 4 characters]');
  });

  it('cuts before an emoji at the cap even when plain text follows it', () => {
    expect(truncateOutput('ab😀cdef', 3)).toBe('ab\n[truncated 6 characters]');
  });

  it('keeps the first and the last character beyond the basic plane whole, and cuts next to other characters at the cap', () => {
    // U+10000 and U+10FFFF open with the lowest and highest high surrogate (0xD800, 0xDBFF).
    expect(truncateOutput('a\u{10000}b', 2)).toBe('a\n[truncated 3 characters]');
    expect(truncateOutput('a\u{10FFFF}b', 2)).toBe('a\n[truncated 3 characters]');
    // U+D7FF is an ordinary character just below the surrogates: the cap falls after it.
    expect(truncateOutput('a\uD7FFbc', 2)).toBe('a\uD7FF\n[truncated 2 characters]');
  });
});
