import { describe, expect, it } from 'vitest';
import { excerpt, jsonLine, printable, printableLine } from '../../src/core/printable.js';
import { TERMINAL_CONTROL } from '../support/terminal.js';

describe('printable', () => {
  it('shows the escape of every sequence as a marker, leaving the rest as plain text: CSI, OSC, 8-bit CSI and OSC', () => {
    expect(printable('a\u001b[2Jb\u001b[1;31mc\u001b[0m')).toBe('a⟨U+001B⟩[2Jb⟨U+001B⟩[1;31mc⟨U+001B⟩[0m');
    expect(printable('a\u001b]0;title\u0007b')).toBe('a⟨U+001B⟩]0;title⟨U+0007⟩b');
    expect(printable('a\u009b2Jb\u009d0;t\u009cc')).toBe('a⟨U+009B⟩2Jb⟨U+009D⟩0;t⟨U+009C⟩c');
    for (const text of ['a\u001b[2J', 'a\u001b]8;;http://x\u001b\\c', 'a\u001bPdevice\u001b\\b'])
      expect(printable(text)).not.toMatch(TERMINAL_CONTROL);
  });

  it('shows C0/C1 controls, DEL and bidi controls as markers, keeps tabs, newlines (also CRLF) and other text', () => {
    expect(printable('a\u0000\u0008\r\u007f\u0085\u202eb\u2066c\u2069\u200fd')).toBe(
      'a⟨U+0000⟩⟨U+0008⟩⟨U+000D⟩⟨U+007F⟩⟨U+0085⟩⟨U+202E⟩b⟨U+2066⟩c⟨U+2069⟩⟨U+200F⟩d',
    );
    expect(printable('tab\tand\nnewline · 日本語 ✓')).toBe('tab\tand\nnewline · 日本語 ✓');
    expect(printable('one\r\ntwo')).toBe('one\ntwo');
  });

  it('shows every format character (category Cf) as a marker: zero-width, soft hyphen, BOM, bidi marks, tags', () => {
    expect(printable('a\u200bb\u00adc\ufeffd\u206ae\u{e0041}f\u2060g')).toBe(
      'a⟨U+200B⟩b⟨U+00AD⟩c⟨U+FEFF⟩d⟨U+206A⟩e⟨U+E0041⟩f⟨U+2060⟩g',
    );
    const line = jsonLine({ text: 'a\u200b\u{e0041}\u00ad' });
    expect(line).toBe('{"text":"a\\u200b\\udb40\\udc41\\u00ad"}');
    expect(JSON.parse(line)).toEqual({ text: 'a\u200b\u{e0041}\u00ad' });
  });

  it('printableLine flattens whitespace; excerpt cuts with an ellipsis', () => {
    expect(printableLine('  one\n\ttwo\r\n three  ')).toBe('one two three');
    expect(excerpt('x'.repeat(10), 5)).toBe('xxxx…');
    expect(excerpt('short', 5)).toBe('short');
  });

  it('jsonLine escapes what a terminal acts on and stays the same JSON value', () => {
    const value = { text: 'a\u009b2J\u202eb\u0007\u2028' };
    const line = jsonLine(value);
    expect(line).not.toMatch(TERMINAL_CONTROL);
    expect(line).not.toContain('\u2028');
    expect(JSON.parse(line)).toEqual(value);
  });
});
