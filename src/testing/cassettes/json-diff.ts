import { createHash } from 'node:crypto';
import { base64Bytes } from '../../core/content-parts.js';

/** At most this many differences are listed in a diff text. */
const MAX_LINES = 20;

/** Longest text shown for one value; longer ones are cut around their first difference. */
const MAX_VALUE = 240;

/**
 * A long base64 text, bare or as a `data:` URL: an image's or a file's bytes (a content part's
 * `data`, or a provider's wire form of it). Long enough that ids and hashes do not match.
 */
const BASE64_BLOB = /^(?:data:([\w.+-]+\/[\w.+-]+);base64,)?([A-Za-z0-9+/]{200,}={0,2})$/;

/** A base64 blob as a note: `[base64 image/png, 1204 bytes, sha256 3f9c2a7d1e4b]`, never its text. */
function blobNote(text: string): string | undefined {
  const blob = BASE64_BLOB.exec(text);
  if (blob === null) return undefined;
  const data = blob[2] ?? '';
  const digest = createHash('sha256').update(data).digest('hex').slice(0, 12);
  return `[base64${blob[1] === undefined ? '' : ` ${blob[1]}`}, ${base64Bytes(data)} bytes, sha256 ${digest}]`;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') return blobNote(value) ?? JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function clip(text: string, from: number): string {
  if (text.length <= MAX_VALUE) return text;
  const start = Math.max(0, Math.min(from - 40, text.length - MAX_VALUE));
  const head = start > 0 ? '…' : '';
  const tail = start + MAX_VALUE < text.length ? '…' : '';
  return `${head}${text.slice(start, start + MAX_VALUE)}${tail}`;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function walk(expected: unknown, actual: unknown, path: string, lines: string[]): void {
  if (lines.length > MAX_LINES) return;
  if (expected === actual) return;
  const bothObjects =
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual);
  if (bothObjects) {
    const keys = Array.isArray(expected)
      ? Array.from({ length: Math.max(expected.length, (actual as unknown[]).length) }, (_, i) => i)
      : [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const next = typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
      walk(
        (expected as Record<string | number, unknown>)[key],
        (actual as Record<string | number, unknown>)[key],
        next,
        lines,
      );
    }
    return;
  }
  const was = show(expected);
  const now = show(actual);
  if (was === now) return;
  const at = firstDifference(was, now);
  lines.push(
    `  ${path === '' ? '(the value)' : path}:\n    - expected ${clip(was, at)}\n    + actual   ${clip(now, at)}`,
  );
}

/**
 * A readable diff of two JSON values: one block per differing path, the expected and the actual
 * value (long strings cut around their first difference; an image's or a file's base64 shown as
 * a note with its size and digest, never as text), at most 20 blocks.
 */
export function jsonDiff(expected: unknown, actual: unknown): string {
  const lines: string[] = [];
  walk(expected, actual, '', lines);
  if (lines.length > MAX_LINES) return `${lines.slice(0, MAX_LINES).join('\n')}\n  … and more differences`;
  return lines.join('\n');
}
