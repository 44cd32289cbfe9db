import {
  type ContentPart,
  type FilePart,
  type ImagePart,
  type MessageContent,
  partNote,
} from '../../core/content-parts.js';
import { isInline } from '../parts/attachment-data.js';
import type {
  AiSdkFileData,
  AiSdkFilePart,
  AiSdkSpecification,
  AiSdkTextPart,
  AiSdkToolContentPart,
  AiSdkToolResultOutput,
} from './ai-sdk-types.js';

function fileData(part: ImagePart | FilePart, spec: AiSdkSpecification): AiSdkFileData {
  if (isInline(part)) return spec === 'v4' ? { type: 'data', data: part.data } : part.data;
  const url = new URL(part.url ?? '');
  return spec === 'v4' ? { type: 'url', url } : url;
}

/**
 * A user message's part as the AI SDK takes it: text, or a `file` part (images are files with
 * an `image/` media type) holding base64 data or a `URL`, in the form of the model's
 * specification version. The provider package maps it to its API, or refuses a type it cannot
 * take (an `UnsupportedFunctionalityError`, which fails the request).
 */
export function userPart(part: ContentPart, spec: AiSdkSpecification): AiSdkTextPart | AiSdkFilePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const filename = part.type === 'file' && part.name !== undefined ? { filename: part.name } : {};
  return { type: 'file', mediaType: part.mediaType, data: fileData(part, spec), ...filename };
}

function toolPart(part: ContentPart, spec: AiSdkSpecification): AiSdkToolContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const filename = part.type === 'file' && part.name !== undefined ? { filename: part.name } : {};
  if (spec === 'v4') {
    const data = isInline(part)
      ? { type: 'data' as const, data: part.data }
      : { type: 'url' as const, url: new URL(part.url ?? '') };
    return { type: 'file', data, mediaType: part.mediaType, ...filename };
  }
  if (spec === 'v3') {
    if (!isInline(part)) return { type: part.type === 'image' ? 'image-url' : 'file-url', url: part.url ?? '' };
    return {
      type: part.type === 'image' ? 'image-data' : 'file-data',
      data: part.data,
      mediaType: part.mediaType,
      ...filename,
    };
  }
  // V2 has media by data only: a URL is a note.
  return isInline(part)
    ? { type: 'media', data: part.data, mediaType: part.mediaType }
    : { type: 'text', text: partNote(part) };
}

/**
 * A tool result as the AI SDK's tool output: text when it is a string, else `content` with its
 * parts in the form of the model's specification version (V4 `file` parts with tagged data;
 * V3 `image-data`/`image-url`/`file-data`/`file-url`; V2 `media`, and a note for a URL).
 */
export function toolOutput(content: MessageContent, spec: AiSdkSpecification): AiSdkToolResultOutput {
  if (typeof content === 'string') return { type: 'text', value: content };
  return { type: 'content', value: content.map((part) => toolPart(part, spec)) };
}
