import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import {
  type ContentPart,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  type FilePart,
  type ImagePart,
  type MessageContent,
} from '../core/content-parts.js';
import { printableLine } from '../core/printable.js';
import { fileMediaType, imageMediaType } from './attachment-type.js';
import { positiveInteger } from './numeric-flags.js';
import { UsageError } from './usage-error.js';

/** The `parseArgs` options of the flags that attach images and files to the task. */
export const ATTACHMENT_FLAGS = {
  image: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  'max-attachment-bytes': { type: 'string' },
} as const;

/** Help lines of {@link ATTACHMENT_FLAGS}. */
export const ATTACHMENT_HELP = `  --image FILE     attach a PNG, JPEG, GIF or WebP image to the task (repeatable)
  --file FILE      attach a PDF or a text file (.txt, .md, .csv, .json, …) to the task (repeatable)
  --max-attachment-bytes N
                   the cap on one image or file, in bytes (default 5 MiB): a larger one is
                   refused before any request`;

/** The attachment flags' values, as `parseArgs` gives them. */
export interface AttachmentValues {
  readonly image?: readonly string[] | undefined;
  readonly file?: readonly string[] | undefined;
  readonly 'max-attachment-bytes'?: string | undefined;
}

/** The task's attachments and their cap, from {@link ATTACHMENT_FLAGS}. */
export interface Attachments {
  /** The images (from `--image`), then the files (from `--file`), in the order given. */
  readonly parts: readonly (ImagePart | FilePart)[];
  /** From `--max-attachment-bytes`; undefined when absent (the config's default, 5 MiB). */
  readonly maxBytes: number | undefined;
}

/** A file named by `flag`, read whole: refused (naming it) when missing, not a file, empty or over `maxBytes`. */
function readAttachment(flag: string, text: string, maxBytes: number): Buffer {
  const where = `${flag} ${printableLine(text)}`;
  const stat = statSync(resolve(text), { throwIfNoEntry: false });
  if (stat === undefined) throw new UsageError(`${where}: no such file`);
  if (!stat.isFile()) throw new UsageError(`${where}: not a file`);
  if (stat.size === 0) throw new UsageError(`${where}: the file is empty`);
  if (stat.size > maxBytes) {
    throw new UsageError(
      `${where}: ${stat.size} bytes, over the cap of ${maxBytes} (raise it with --max-attachment-bytes N)`,
    );
  }
  return readFileSync(resolve(text));
}

/**
 * Reads `--image` and `--file`: each file whole, its media type from its first bytes (images,
 * PDFs) or its extension (text files). A missing or empty file, a file over the cap
 * (`--max-attachment-bytes`, else 5 MiB) and a type the flag does not take are
 * {@link UsageError}s naming the file, before any request is made.
 */
export function readAttachments(values: AttachmentValues): Attachments {
  const maxBytes = positiveInteger(values['max-attachment-bytes'], '--max-attachment-bytes');
  const cap = maxBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  const images = (values.image ?? []).map((text): ImagePart => {
    const bytes = readAttachment('--image', text, cap);
    const mediaType = imageMediaType(bytes);
    if (mediaType === undefined) {
      throw new UsageError(`--image ${printableLine(text)}: not a PNG, JPEG, GIF or WebP image (by its first bytes)`);
    }
    return { type: 'image', mediaType, data: bytes.toString('base64') };
  });
  const files = (values.file ?? []).map((text): FilePart => {
    const bytes = readAttachment('--file', text, cap);
    const found = fileMediaType(text, bytes);
    if ('refused' in found) throw new UsageError(`--file ${printableLine(text)}: ${found.refused}`);
    const name = basename(text).slice(0, 255);
    return { type: 'file', mediaType: found.mediaType, data: bytes.toString('base64'), name };
  });
  return { parts: [...images, ...files], maxBytes };
}

/** Refuses attachments without a task (an empty task continues an interrupted run instead). */
export function requireTaskFor(attachments: Attachments, task: string): void {
  if (task === '' && attachments.parts.length > 0) {
    throw new UsageError('--image and --file go with a task: give the task too, e.g. "What does this show?"');
  }
}

/** The task with its attachments: the text alone when there are none, else a text part and the attachments. */
export function taskContent(task: string, attachments: readonly (ImagePart | FilePart)[]): MessageContent {
  if (attachments.length === 0) return task;
  const parts: ContentPart[] = [{ type: 'text', text: task }, ...attachments];
  return parts;
}
