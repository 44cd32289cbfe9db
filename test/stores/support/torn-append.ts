import { stableJson } from '../../../src/core/stable-json.js';
import type { StoredEntry } from '../../../src/stores/index.js';
import { encodeLine } from '../../../src/stores/jsonl/jsonl-format.js';

/** The lines of an append of `entries` at `from`, cut in the middle of its second-to-last line. */
export function tornAppend(from: number, entries: readonly StoredEntry[]): Buffer {
  const last = from + entries.length - 1;
  const lines = entries.map((entry, i) => encodeLine(from + i, last, stableJson(entry)));
  const whole = Buffer.concat(lines.slice(0, -2));
  const cut = lines.at(-2) ?? Buffer.alloc(0);
  return Buffer.concat([whole, cut.subarray(0, Math.floor(cut.length / 2))]);
}
