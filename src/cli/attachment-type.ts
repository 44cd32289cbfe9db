import { extname } from 'node:path';
import { attachmentType } from '../tools/workspace/attachment-type.js';

/** The text files `--file` takes, by extension (their bytes must be UTF-8). */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** What `--file` accepts, for messages. */
export const FILE_KINDS = `PDF, or UTF-8 text: ${Object.keys(TEXT_TYPES).join(', ')}`;

/** The media type of an image's bytes (PNG, JPEG, GIF or WebP), from their first bytes; undefined for others. */
export function imageMediaType(bytes: Buffer): string | undefined {
  const found = attachmentType(bytes);
  return found?.type === 'image' ? found.mediaType : undefined;
}

/** What {@link fileMediaType} found: a media type, or why the file is not one `--file` takes. */
export type FileType = { readonly mediaType: string } | { readonly refused: string };

/**
 * The media type of a `--file`: `application/pdf` for bytes that start `%PDF-`, else a text type
 * by the extension when the bytes are UTF-8. An image, a `.pdf` that is no PDF, text that is not
 * UTF-8 and any other extension are refused, saying why.
 */
export function fileMediaType(path: string, bytes: Buffer): FileType {
  const extension = extname(path).toLowerCase();
  if (attachmentType(bytes)?.mediaType === 'application/pdf') return { mediaType: 'application/pdf' };
  if (extension === '.pdf') return { refused: 'is not a PDF (it does not start with %PDF-)' };
  if (imageMediaType(bytes) !== undefined) return { refused: 'is an image: attach it with --image' };
  const text = TEXT_TYPES[extension];
  if (text === undefined) return { refused: `is of a type --file does not take (it takes ${FILE_KINDS})` };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { refused: 'is not UTF-8 text' };
  }
  return { mediaType: text };
}
