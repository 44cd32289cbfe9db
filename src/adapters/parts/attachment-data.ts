import type { FilePart, ImagePart } from '../../core/content-parts.js';

/** An image or a file whose bytes are inline (`data`), not at a `url`. */
export type InlineAttachment = (ImagePart | FilePart) & { readonly data: string };

/** Whether the part carries its bytes rather than a URL. */
export function isInline(part: ImagePart | FilePart): part is InlineAttachment {
  return part.data !== undefined;
}

/** The part's bytes as a `data:` URL (`data:image/png;base64,…`), the form OpenAI's APIs take. */
export function dataUrl(part: InlineAttachment): string {
  return `data:${part.mediaType};base64,${part.data}`;
}

/** Whether a file is a PDF. */
export function isPdf(part: FilePart): boolean {
  return part.mediaType === 'application/pdf';
}

// Text in all but name: structured formats registered under application/.
const TEXT_APPLICATION_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
]);

/**
 * Whether a file is text: `text/*` (`text/plain`, `text/markdown`, `text/csv`, …), JSON, XML,
 * YAML or TOML (`application/json`, …, also with a `+json`/`+xml` suffix).
 */
export function isTextFile(part: FilePart): boolean {
  const type = part.mediaType.toLowerCase();
  return (
    type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')
  );
}

/** The text a base64 text decodes to, read as UTF-8 (malformed bytes become U+FFFD). */
export function base64Text(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at++) bytes[at] = binary.charCodeAt(at);
  return new TextDecoder().decode(bytes);
}

/** A file's name for a provider that requires one: its own, or `document.pdf`, `file.txt`, … */
export function fileName(part: FilePart): string {
  if (part.name !== undefined) return part.name;
  if (isPdf(part)) return 'document.pdf';
  return isTextFile(part) ? 'file.txt' : 'file';
}
