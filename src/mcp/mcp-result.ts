import { contentPartSchema } from '../core/content-check.js';
import { type ContentPart, contentText, IMAGE_MEDIA_TYPES } from '../core/content-parts.js';
import { ToolResult } from '../core/tool-result.js';

/** One item of a `tools/call` result's `content` (the fields used here). */
interface ContentItem {
  readonly type?: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: {
    readonly uri?: string;
    readonly text?: string;
    readonly blob?: string;
    readonly mimeType?: string;
  };
}

/** A `tools/call` result (the fields used here); older servers answer `{ toolResult }`. */
export interface McpCallResult {
  readonly content?: readonly ContentItem[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly toolResult?: unknown;
}

/** Bytes encoded by a base64 string, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function summary(kind: string, mimeType: string | undefined, data: string | undefined, uri?: string, why?: string) {
  const parts = [
    mimeType ?? kind,
    ...(uri === undefined ? [] : [uri]),
    `${base64Bytes(data ?? '').toLocaleString('en-US')} bytes`,
  ];
  const note = why === undefined ? '' : `; not sent: ${why}`;
  return `[${kind === 'image' || kind === 'audio' ? '' : `${kind} `}${parts.join(', ')}${note}]`;
}

/** The last segment of a resource URI, as a file name (none when it has no usable one). */
function fileName(uri: string | undefined): string | undefined {
  const last = (uri ?? '').split(/[/\\]/).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return name.length > 0 && name.length <= 255 ? name : undefined;
}

/** `part` when it is a valid content part (SPEC §15), else why not, for the note that replaces it. */
function checked(part: ContentPart): ContentPart | string {
  const parsed = contentPartSchema.safeParse(part);
  if (parsed.success) return part;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') ?? 'part'} ${issue?.message ?? 'is not valid'}`;
}

/** Binary data as an image or a file part, or a note saying why it is not one. */
function binaryPart(
  kind: 'image' | 'resource',
  mimeType: string | undefined,
  data: string | undefined,
  uri?: string,
): ContentPart | string {
  if (mimeType === undefined || typeof data !== 'string') {
    return summary(kind, mimeType, data, uri, mimeType === undefined ? 'no mimeType' : 'no data');
  }
  if (kind === 'image' && !IMAGE_MEDIA_TYPES.includes(mimeType)) {
    return summary(kind, mimeType, data, uri, `${mimeType} is not one of ${IMAGE_MEDIA_TYPES.join(', ')}`);
  }
  const name = fileName(uri);
  const part: ContentPart = IMAGE_MEDIA_TYPES.includes(mimeType)
    ? { type: 'image', mediaType: mimeType, data }
    : { type: 'file', mediaType: mimeType, data, ...(name === undefined ? {} : { name }) };
  const valid = checked(part);
  return typeof valid === 'string' ? summary(kind, mimeType, data, uri, valid) : valid;
}

/**
 * One content item as a part: text as it is; an image, or a resource's blob, as an image or
 * file part; what cannot be one (audio, a link, a bad media type or bad base64) as a text note.
 */
function itemPart(item: ContentItem): ContentPart | string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
      return binaryPart('image', item.mimeType, item.data);
    case 'audio':
      return summary('audio', item.mimeType, item.data, undefined, 'audio is not passed to the model');
    case 'resource': {
      const resource = item.resource ?? {};
      if (typeof resource.text === 'string') return resource.text;
      return binaryPart('resource', resource.mimeType, resource.blob, resource.uri);
    }
    case 'resource_link':
      return `[resource link: ${item.uri ?? '?'}${item.name === undefined ? '' : ` (${item.name})`}]`;
    default:
      return `[${String(item.type)} content]`;
  }
}

/**
 * A `tools/call` result as a {@link ToolResult}. Its content items in order: text as it is, an
 * `image` (PNG, JPEG, GIF, WebP) as an image part, a `resource` with a `blob` as an image or file
 * part of its `mimeType` (named after its URI), and what the model cannot take (audio, resource
 * links, other image types, bad base64) as a text note (`[audio/wav, 10 bytes; not sent: …]`).
 * With no image or file, the result is the items' text joined by newlines, as before; with
 * structured content and no content, that content as JSON. `isError: true` makes it an error
 * result (text and notes), so the model reads `Error: …`. The registry caps each part at
 * `Config.maxAttachmentBytes`: an image over it makes the call's error, naming the tool and its
 * server. The server's text is passed on as it is: it becomes a `tool` message and nothing else.
 */
export function toToolResult(result: McpCallResult): ToolResult {
  let text: string;
  let parts: (ContentPart | string)[] = [];
  if (Array.isArray(result.content) && result.content.length > 0) {
    parts = result.content.map(itemPart);
    text = parts.map((part) => (typeof part === 'string' ? part : contentText([part]))).join('\n');
  } else if (result.structuredContent !== undefined) {
    text = JSON.stringify(result.structuredContent);
  } else if (result.toolResult !== undefined) {
    text = typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  } else {
    text = '';
  }
  if (result.isError === true) return ToolResult.error(text === '' ? 'the MCP tool failed without a message' : text);
  if (!parts.some((part) => typeof part !== 'string' && part.type !== 'text')) return ToolResult.success(text);
  return ToolResult.content(parts.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)));
}
