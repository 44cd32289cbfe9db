import { extname } from 'node:path';

/** What a file's first bytes say it is, when it is an image or a PDF a model can take as a part. */
export interface AttachmentType {
  /** `image` for PNG, JPEG, GIF and WebP; `file` for PDF. */
  readonly type: 'image' | 'file';
  /** Its media type, such as `image/png` or `application/pdf`. */
  readonly mediaType: string;
}

/** How many first bytes {@link attachmentType} reads. */
export const ATTACHMENT_HEAD_BYTES = 12;

const ascii = (head: Buffer, at: number, text: string) => head.toString('latin1', at, at + text.length) === text;

/**
 * The image or PDF type of a file by its magic bytes (PNG, JPEG, GIF, WebP, PDF), or undefined
 * when it is none of them. `head` is the file's first {@link ATTACHMENT_HEAD_BYTES} bytes (fewer
 * for a shorter file).
 */
export function attachmentType(head: Buffer): AttachmentType | undefined {
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) {
    return { type: 'image', mediaType: 'image/png' };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { type: 'image', mediaType: 'image/jpeg' };
  }
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { type: 'image', mediaType: 'image/gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { type: 'image', mediaType: 'image/webp' };
  if (ascii(head, 0, '%PDF-')) return { type: 'file', mediaType: 'application/pdf' };
  return undefined;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  '.png': 'a PNG image',
  '.jpg': 'a JPEG image',
  '.jpeg': 'a JPEG image',
  '.gif': 'a GIF image',
  '.webp': 'a WebP image',
  '.pdf': 'a PDF',
};

/** What a file's extension says it is (`a PNG image`), when it names an image or a PDF. */
export function attachmentExtension(path: string): string | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}
