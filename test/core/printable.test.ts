import { describe, expect, it } from 'vitest';
import { excerpt, jsonLine, printable, printableLine } from '../../src/core/printable.js';
import { TERMINAL_CONTROL } from '../support/terminal.js';

describe('printable', () => {
  it('removes whole escape sequences: CSI, OSC ended by BEL or ST, 8-bit CSI and OSC', () => {
    expect(printable('a\u001b[2Jb\u001b[1;31mc\u001b[0m')).toBe('abc');
    expect(printable('a\u001b]0;title\u0007b\u001b]8;;http://x\u001b\\c')).toBe('abc');
    expect(printable('a\u009b2Jb\u009d0;t\u009cc')).toBe('abc');
    expect(printable('a\u001bPdevice\u001b\\b')).toBe('ab');
  });

  it('removes C0/C1 controls, DEL and bidi controls, keeps tabs, newlines and other text', () => {
    expect(printable('a\u0000\u0008\r\u007f\u0085\u202eb\u2066c\u2069\u200fd')).toBe('abcd');
    expect(printable('tab\tand\nnewline · 日本語 ✓')).toBe('tab\tand\nnewline · 日本語 ✓');
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
