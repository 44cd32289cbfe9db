import { redactUrl } from './redact-url.js';

/** Text in a message made of parts. */
export interface TextPart {
  /** Always `'text'`. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/**
 * An image (SPEC §15): its bytes as base64 `data`, or a `url` the provider fetches itself (the
 * harness never fetches one). Exactly one of the two.
 */
export interface ImagePart {
  /** Always `'image'`. */
  readonly type: 'image';
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  readonly mediaType: string;
  /** The image's bytes, base64-encoded (no `data:` prefix). */
  readonly data?: string;
  /** An `https:` (or `http:`) address the provider fetches. */
  readonly url?: string;
}

/** A document, such as a PDF: its bytes as base64 `data`, or a `url`. Exactly one of the two. */
export interface FilePart {
  /** Always `'file'`. */
  readonly type: 'file';
  /** Its media type, such as `application/pdf` or `text/plain`. */
  readonly mediaType: string;
  /** The file's bytes, base64-encoded (no `data:` prefix). */
  readonly data?: string;
  /** An `https:` (or `http:`) address the provider fetches. */
  readonly url?: string;
  /** Its file name, shown to the model where the provider takes one. */
  readonly name?: string;
}

/** One part of a user message or a tool result. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** What a user message or a tool result holds: a string, or parts. */
export type MessageContent = string | readonly ContentPart[];

/** The media types an image part may have: those every provider with vision accepts. */
export const IMAGE_MEDIA_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The default cap on one image or file part's bytes (5 MiB), `Config.maxAttachmentBytes`. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/**
 * How an image or a file stands in text where no part can go: `[image image/png, 1204 bytes]`.
 * A URL's user name and password are left out: notes reach events, outputs and terminals.
 */
export function partNote(part: ImagePart | FilePart): string {
  const where = part.url !== undefined ? `at ${redactUrl(part.url)}` : `${base64Bytes(part.data ?? '')} bytes`;
  const name = part.type === 'file' && part.name !== undefined ? ` ${JSON.stringify(part.name)}` : '';
  return `[${part.type}${name} ${part.mediaType}, ${where}]`;
}

/**
 * The text of a content: the string itself, or its parts' texts in order, with a
 * {@link partNote} for each image or file. For places that can only hold text (a summary, a
 * token estimate's text share, a terminal).
 */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (text !== '') text += '\n';
    text += part.type === 'text' ? part.text : partNote(part);
  }
  return text;
}

/** Whether the content holds an image or a file. */
export function hasAttachments(content: MessageContent): boolean {
  return typeof content !== 'string' && content.some((part) => part.type !== 'text');
}

/** The number of bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.floor((data.length * 3) / 4) - padding;
}
