import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeadTailText } from '../../../src/tools/workspace/head-tail-text.js';
import { type ReadLine, readLines } from '../../../src/tools/workspace/read-lines.js';
import { tempWorkspace } from '../../support/workspace.js';

function collect(max: number, chunks: readonly Buffer[]): string {
  const text = new HeadTailText(max);
  for (const chunk of chunks) text.push(chunk);
  return text.text();
}

describe('HeadTailText', () => {
  it('keeps text within the cap whole', () => {
    expect(collect(10, [Buffer.from('abc'), Buffer.from('def')])).toBe('abcdef');
  });

  it('keeps the first and last halves around a count of what was cut, in order', () => {
    const chunks = Array.from({ length: 100 }, (_, i) => Buffer.from(`${String(i).padStart(2, '0')},`));
    expect(collect(10, chunks)).toBe('00,01\n[truncated 290 characters]\n8,99,');
  });

  it('decodes a character split across chunks, and never keeps half of a surrogate pair', () => {
    const euro = Buffer.from('€');
    expect(collect(10, [euro.subarray(0, 1), euro.subarray(1)])).toBe('€');
    const emoji = '😀'.repeat(20); // 40 UTF-16 units
    const kept = collect(9, [Buffer.from(emoji)]);
    expect(kept).toBe('😀😀\n[truncated 32 characters]\n😀😀');
  });
});

describe('readLines', () => {
  async function linesOf(content: string | Buffer, maxChars: number, bytes = 1 << 30) {
    const file = join(tempWorkspace(), 'f.txt');
    writeFileSync(file, content);
    const handle = await open(file, 'r');
    const budget = { remaining: bytes, spent: false };
    const lines: ReadLine[] = [];
    try {
      for await (const line of readLines(handle, maxChars, budget)) lines.push(line);
    } finally {
      await handle.close();
    }
    return { lines, budget };
  }

  it('splits on line breaks, drops a CR before LF, and keeps a last line without a break', async () => {
    const { lines } = await linesOf('a\r\nb\n\nc', 100);
    expect(lines).toEqual([
      { text: 'a', cut: 0 },
      { text: 'b', cut: 0 },
      { text: '', cut: 0 },
      { text: 'c', cut: 0 },
    ]);
  });

  it('keeps the start of a long line and counts the rest, across chunk boundaries', async () => {
    const { lines } = await linesOf(`${'x'.repeat(200_000)}é\nnext\n`, 5);
    expect(lines).toEqual([
      { text: 'xxxxx', cut: 199_996 },
      { text: 'next', cut: 0 },
    ]);
  });

  it('decodes a character that straddles two chunks', async () => {
    const { lines } = await linesOf(`${'a'.repeat(64 * 1024 - 1)}é\n`, 70_000);
    expect(lines[0]?.text.endsWith('aé')).toBe(true);
  });

  it('stops when the byte budget is spent and says so', async () => {
    const { lines, budget } = await linesOf('one\ntwo\nthree\n', 100, 6);
    expect(lines).toEqual([{ text: 'one', cut: 0 }]);
    expect(budget).toEqual({ remaining: 0, spent: true });
  });
});
