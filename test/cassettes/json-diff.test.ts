import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsonDiff } from '../../src/testing/cassettes/json-diff.js';

/** `bytes` bytes of pseudo-random content, as base64. */
function blob(bytes: number, seed: number): string {
  return Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + seed * 17) % 256)).toString('base64');
}

const sha = (data: string): string => createHash('sha256').update(data).digest('hex').slice(0, 12);

describe('jsonDiff of images and files', () => {
  it('shows a changed part’s base64 as a note with its size and digest, never the text', () => {
    const was = blob(600, 1);
    const now = blob(600, 2);
    const diff = jsonDiff(
      { content: [{ type: 'image', mediaType: 'image/png', data: was }] },
      { content: [{ type: 'image', mediaType: 'image/png', data: now }] },
    );
    expect(diff).toBe(
      `  content[0].data:\n    - expected [base64, 600 bytes, sha256 ${sha(was)}]\n    + actual   [base64, 600 bytes, sha256 ${sha(now)}]`,
    );
  });

  it('names the media type of a data: URL (a provider’s wire form)', () => {
    const now = blob(300, 3);
    const diff = jsonDiff({ url: 'https://example.com/a.png' }, { url: `data:image/webp;base64,${now}` });
    expect(diff).toContain(`+ actual   [base64 image/webp, 300 bytes, sha256 ${sha(now)}]`);
    expect(diff).toContain('- expected "https://example.com/a.png"');
  });

  it('shows short strings (ids, hashes, words) as they are', () => {
    const hash = 'a'.repeat(64);
    expect(jsonDiff({ id: hash }, { id: 'b'.repeat(64) })).toContain(`- expected "${hash}"`);
  });
});
