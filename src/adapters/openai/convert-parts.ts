import { type ContentPart, type FilePart, type ImagePart, partNote } from '../../core/content-parts.js';
import { HarnessError } from '../../core/errors.js';
import { redactUrl } from '../../core/redact-url.js';
import { base64Text, dataUrl, fileName, isInline, isPdf, isTextFile } from '../parts/attachment-data.js';
import type { OpenAIContentPart } from './openai-types.js';

/**
 * Refuses a file given by URL: Chat Completions takes files only as data (it has no `file_url`),
 * and the harness never fetches a URL itself.
 */
function refuseFileUrl(part: FilePart, where: string): never {
  throw new HarnessError(
    'invalid_content',
    `${where}: Chat Completions takes no file URL (${part.mediaType} at ${redactUrl(part.url ?? '')}); give the file's data, or use the Responses API (api: 'responses')`,
  );
}

/** A text file's content as text, under a heading that names it. */
function textFile(part: FilePart & { data: string }): string {
  return `${partNote(part)}\n${base64Text(part.data)}`;
}

/**
 * One image or file as a Chat Completions part: an image as `image_url` (a data URL, or its
 * URL), a PDF as `file` (`file_data`, a data URL), a text file as its text, any other file as a
 * note. A file at a URL is refused (`invalid_content`, naming `where`).
 */
export function chatAttachment(part: ImagePart | FilePart, where: string): OpenAIContentPart {
  if (part.type === 'image') {
    return { type: 'image_url', image_url: { url: isInline(part) ? dataUrl(part) : (part.url ?? '') } };
  }
  if (!isInline(part)) return refuseFileUrl(part, where);
  if (isPdf(part)) return { type: 'file', file: { filename: fileName(part), file_data: dataUrl(part) } };
  return { type: 'text', text: isTextFile(part) ? textFile(part) : partNote(part) };
}

/** A user message's parts as Chat Completions content parts (see {@link chatAttachment}). */
export function chatUserParts(parts: readonly ContentPart[], where: string): OpenAIContentPart[] {
  return parts.map((part, index) =>
    part.type === 'text' ? { type: 'text', text: part.text } : chatAttachment(part, `${where} part ${index}`),
  );
}

/** What a tool result with parts becomes on Chat Completions, whose `tool` messages take text only. */
export interface ChatToolResult {
  /** The `tool` message's text: the text parts, a text file's text, a note for each image or file. */
  readonly text: string;
  /** The images and PDFs, for the user message that follows the turn's tool messages. */
  readonly attachments: OpenAIContentPart[];
}

/**
 * Splits a tool result's parts: text (and text files) stays in the `tool` message, images and
 * PDFs move to a user message after the turn's results, each leaving a note where it was.
 */
export function chatToolResult(parts: readonly ContentPart[], where: string): ChatToolResult {
  const lines: string[] = [];
  const attachments: OpenAIContentPart[] = [];
  parts.forEach((part, index) => {
    if (part.type === 'text') {
      lines.push(part.text);
      return;
    }
    const converted = chatAttachment(part, `${where} part ${index}`);
    if (converted.type === 'text') {
      lines.push(converted.text);
      return;
    }
    attachments.push(converted);
    lines.push(`${partNote(part)} (attached to the user message after the tool results)`);
  });
  return { text: lines.join('\n'), attachments };
}
