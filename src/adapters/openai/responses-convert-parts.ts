import { type ContentPart, type FilePart, type MessageContent, partNote } from '../../core/content-parts.js';
import { dataUrl, fileName, isInline } from '../parts/attachment-data.js';
import type { ResponsesInputContent } from './responses-types.js';

/**
 * The files the Responses API reads as `input_file`: PDFs, text and code, JSON and XML, Word,
 * PowerPoint, Excel and RTF documents (OpenAI's file-inputs guide). Others become a note.
 */
const FILE_TYPES =
  /^(text\/.+|application\/(pdf|json|xml|rtf|msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\..+))$/;

function inputFile(part: FilePart): ResponsesInputContent {
  if (!FILE_TYPES.test(part.mediaType)) return { type: 'input_text', text: partNote(part) };
  if (isInline(part)) return { type: 'input_file', filename: fileName(part), file_data: dataUrl(part) };
  return {
    type: 'input_file',
    file_url: part.url ?? '',
    ...(part.name !== undefined ? { filename: part.name } : {}),
  };
}

function inputPart(part: ContentPart): ResponsesInputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: isInline(part) ? dataUrl(part) : (part.url ?? ''), detail: 'auto' };
    case 'file':
      return inputFile(part);
  }
}

/**
 * A user message's or a tool result's content as the Responses API takes it: a string as it is,
 * parts as `input_text`, `input_image` (a data URL or its URL, `detail: 'auto'`) and
 * `input_file` (`file_data`, a data URL, or `file_url`). A file of a type the API does not read
 * becomes an `input_text` note.
 */
export function responsesContent(content: MessageContent): string | ResponsesInputContent[] {
  return typeof content === 'string' ? content : content.map(inputPart);
}
