import { type ContentPart, type FilePart, partNote } from '../../core/content-parts.js';
import { base64Text, isInline, isPdf, isTextFile } from '../parts/attachment-data.js';
import type { AnthropicImageMediaType, AnthropicPartBlock } from './anthropic-types.js';

function documentBlock(part: FilePart): AnthropicPartBlock {
  const title = part.name !== undefined ? { title: part.name } : {};
  if (isPdf(part)) {
    const source = isInline(part)
      ? { type: 'base64' as const, media_type: 'application/pdf' as const, data: part.data }
      : { type: 'url' as const, url: part.url ?? '' };
    return { type: 'document', source, ...title };
  }
  // The API reads text documents from their text only (no URL): a text file at a URL is a note.
  if (isTextFile(part) && isInline(part)) {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: base64Text(part.data) },
      ...title,
    };
  }
  return { type: 'text', text: partNote(part) };
}

/** One part as a block, or none for empty text (the API refuses empty text blocks). */
function partBlock(part: ContentPart): AnthropicPartBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image',
        source: isInline(part)
          ? // Checked at the boundary: an image part's media type is one of these (IMAGE_MEDIA_TYPES).
            { type: 'base64', media_type: part.mediaType as AnthropicImageMediaType, data: part.data }
          : { type: 'url', url: part.url ?? '' },
      };
    case 'file':
      return documentBlock(part);
  }
}

/**
 * Parts as Messages API blocks, for a user turn or a `tool_result`'s content: text, `image`
 * (base64 or URL), `document` for a PDF (base64 or URL) or a text file (its decoded text, as
 * `text/plain`), titled with the file's name; any other file, and a text file at a URL, as a
 * text note.
 */
export function partBlocks(parts: readonly ContentPart[]): AnthropicPartBlock[] {
  return parts.flatMap((part) => partBlock(part) ?? []);
}
