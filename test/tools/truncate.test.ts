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
});
