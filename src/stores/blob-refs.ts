import { createHash } from 'node:crypto';

/**
 * The least base64 characters (4 KiB) an image's or a file's `data` must hold to be stored once,
 * content-addressed, instead of inside its entry.
 */
export const BLOB_MIN_CHARS = 4096;

/** Bytes stored once, under the SHA-256 of those bytes (lowercase hex). */
export interface Blob {
  /** The SHA-256 of `bytes`, 64 lowercase hex digits. */
  readonly hash: string;
  /** The decoded bytes. */
  readonly bytes: Buffer;
}

/** Entry bodies with their large `data` replaced by references, and the blobs referenced. */
export interface ExternalizedBodies {
  /** The bodies to store. */
  readonly bodies: string[];
  /** Each blob the bodies reference, once. */
  readonly blobs: Blob[];
}

// A reference is the blob's hash after a raw U+0001 in place of the base64 text, inside the
// `data` string. Stable JSON escapes every control character (`\u0001`), so a raw one never
// occurs in an entry's own text: a stored body holds one exactly where a reference was made.
const MARK = '\u0001';
// `"data":"` can only be a key in JSON text: inside a string its quotes would be escaped. (The
// length is checked apart: a counted quantifier such as `{4096,}` is 20 times slower in V8.)
const DATA = /"data":"([A-Za-z0-9+/]+={0,2})"/g;
const REFERENCE = new RegExp(`${MARK}([0-9a-f]{64})`, 'g');

/**
 * Takes each `"data":"<base64>"` of at least {@link BLOB_MIN_CHARS} characters out of `bodies`
 * (stable JSON, as stores write them), leaving a reference to its bytes. Base64 that would not
 * re-encode to the same text (non-zero padding bits) stays inline, so {@link rehydrateBody}
 * always gives back the exact body.
 */
export function externalizeBlobs(bodies: readonly string[]): ExternalizedBodies {
  const blobs = new Map<string, Blob>();
  const stored = bodies.map((body) => {
    if (!body.includes('"data":"')) return body;
    return body.replace(DATA, (whole, base64: string) => {
      if (base64.length < BLOB_MIN_CHARS) return whole;
      const bytes = Buffer.from(base64, 'base64');
      if (bytes.toString('base64') !== base64) return whole;
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (!blobs.has(hash)) blobs.set(hash, { hash, bytes });
      return `"data":"${MARK}${hash}"`;
    });
  });
  return { bodies: stored, blobs: [...blobs.values()] };
}

/** The hashes of the blobs `body` references, in order (repeats included). */
export function blobReferences(body: string): string[] {
  if (!body.includes(MARK)) return [];
  return [...body.matchAll(REFERENCE)].map((match) => match[1] as string);
}

/**
 * `body` with each reference replaced by its blob's base64, from `blobs` (hash → base64): the
 * body as it was appended. Returns the first missing hash, as `{ missing }`, when a blob is absent.
 */
export function rehydrateBody(body: string, blobs: ReadonlyMap<string, string>): string | { missing: string } {
  if (!body.includes(MARK)) return body;
  let missing: string | undefined;
  const text = body.replace(REFERENCE, (_, hash: string) => {
    const base64 = blobs.get(hash);
    if (base64 === undefined) missing ??= hash;
    return base64 ?? '';
  });
  return missing === undefined ? text : { missing };
}
