import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** One line of a file, without its line break, cut to a maximum length. */
export interface ReadLine {
  /** The line's first characters (all of them when `cut` is 0). */
  readonly text: string;
  /** How many characters were cut off the end. */
  readonly cut: number;
}

/** Bytes a scan may still read, shared by the files of one search; `spent` once it ran out. */
export interface ByteBudget {
  remaining: number;
  spent: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The lines of an open file, streamed in chunks so a huge file is never held whole. A line
 * longer than `maxChars` keeps only its first `maxChars` characters (the rest is counted, not
 * kept), which bounds both memory and what a regular expression is run on. Stops, with
 * `budget.spent` set, once the budget's bytes are read.
 */
export async function* readLines(handle: FileHandle, maxChars: number, budget: ByteBudget): AsyncGenerator<ReadLine> {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let line = '';
  let cut = 0;
  const add = (piece: string): void => {
    const room = maxChars - line.length;
    if (piece.length <= room) line += piece;
    else {
      line += piece.slice(0, Math.max(0, room));
      cut += piece.length - Math.max(0, room);
    }
  };
  const finish = (): ReadLine => {
    const text = cut === 0 && line.endsWith('\r') ? line.slice(0, -1) : line;
    const done = { text, cut };
    line = '';
    cut = 0;
    return done;
  };
  for (;;) {
    if (budget.remaining <= 0) {
      budget.spent = true;
      return;
    }
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, budget.remaining), null);
    if (bytesRead === 0) break;
    budget.remaining -= bytesRead;
    const text = decoder.write(buffer.subarray(0, bytesRead));
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      add(text.slice(start, end));
      yield finish();
      start = end + 1;
    }
    add(text.slice(start));
  }
  add(decoder.end());
  if (line !== '' || cut > 0) yield finish();
}
